// How a panel runs, the two ways people run panels:
//   native: its processes (panel_process.hpp: the panel, its database, its
//           cache, its node, its one-shot steps), declared by the adapter and
//           run by a ProcessRunner through stand.process/1 in the box; or,
//           when the adapter declares none, the config's command alone;
//   docker: a compose command (`docker compose`, or config.compose, e.g.
//           ["docker-compose"] or ["podman-compose"]) with a compose file the
//           adapter writes, whose services take the box as cgroup parent
//           (${STAND_CGROUP_PARENT}, set from the host's ${stand.box.NAME}
//           token); the docker CLI (config.docker, e.g. "podman") for
//           `restart` and `image inspect`. Both inherit stand's environment
//           (DOCKER_HOST, CONTAINERS_CONF).
// Commands, env values and the working directory may use the adapter's
// variables (${data_dir}, ${port}, ${listen}, ...), expanded before the spawn.
// Helper commands (a panel's own CLI: x-ui setting, pasarguard-cli, mistgate
// setup) run through run_capture() with LaunchConfig's env and working_dir:
// the panel's when it is the config's command alone; with declared processes
// each process has its own, which a helper does not get (see run_capture()).
#pragma once

#include <stand/kits/panel/compose_file.hpp>
#include <stand/kits/panel/panel_process.hpp>
#include <stand/kits/panel/process_runner.hpp>
#include <stand/stand.hpp>

#include <boost/json.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stand_panel_kit {

enum class RunMode { native, docker };

struct LaunchConfig {
    RunMode mode = RunMode::native;
    std::vector<std::string> command;           // native: argv
    std::map<std::string, std::string> env;     // native: added environment
    std::string working_dir;                    // native: "" = the adapter's default
    // native: the processes, in start order; empty: one named "panel" (its
    // log panel.log) from command, env, working_dir and box. docker: the
    // processes that run beside the compose file's services (a node agent
    // on this machine), started after `compose up` and stopped before
    // `compose down`; restart() leaves them running.
    std::vector<PanelProcess> processes;
    std::string docker = "docker";              // docker: the CLI
    std::vector<std::string> compose;           // docker: the compose command; default {docker, "compose"}
    std::string project;                        // docker: compose project name
    std::string container;                      // docker: container restarted by restart()
    std::string box = "measured";               // "" = none
};

// The config's command as a declared process, "panel" (its log panel.log):
// its env, working_dir and box. What native mode runs when the adapter
// declares no processes; an adapter that declares more puts it among them.
PanelProcess command_process(const LaunchConfig& config);

// Declares "mode", "command", "env", "working_dir", "docker", "compose", "box"
// in an adapter's config (the rest is the adapter's). `default_mode` is the
// mode when "mode" is absent; `default_command` the native argv when none is
// given (empty: none, the adapter then needs one or its own default). An
// adapter says more about a key with spec.key("command").describe(...).
void declare_launch_keys(stand::cpp::ConfigSpec& spec, RunMode default_mode,
                         const std::vector<std::string>& default_command = {});
// Reads the keys declare_launch_keys() declared; throws ConfigError naming the field.
LaunchConfig read_launch_config(stand::cpp::ConfigValues& cfg);

class Launcher {
public:
    // `data_dir`: the panel's (its processes' data folders are under it).
    Launcher(const stand::cpp::Host& host, std::string panel, LaunchConfig config, const std::filesystem::path& data_dir);
    ~Launcher();

    // ${name} placeholders expanded in commands, env values and compose text.
    void set_variable(const std::string& name, const std::string& value) { vars_[name] = value; }
    std::string expand(const std::string& text) const;

    // docker: the compose file written to <data dir>/compose.yml before `up`.
    void set_compose(const ComposeFile& file) { compose_ = render_compose(file); }
    void set_compose_text(std::string yaml) { compose_ = std::move(yaml); }
    // docker: writes the compose file now (before a helper `compose run`).
    void write_compose_file() const;
    // docker: the compose command for this project and file, then `tail`
    // (e.g. {"run", "--rm", SERVICE, ...} for a helper command in the image).
    std::vector<std::string> compose_argv(const std::vector<std::string>& tail) const;
    // Files or folders the system under test is made of besides the command
    // (the core a panel spawns, its data files, a virtualenv); expanded when listed.
    void add_artifact(std::string path) { extra_artifacts_.push_back(std::move(path)); }

    // What the chosen mode needs, checked before anything runs: every
    // declared process's program, user and working directory; docker: the
    // CLI and the compose command's executable too. Throws
    // Error(STAND_E_NOT_FOUND) naming what is missing, with `hint` when a
    // program is.
    void check_installed(const std::string& hint) const;

    void start();
    void stop();
    void restart();
    // The declared processes (start_process() of one the adapter starts,
    // death() of one that ended, data_bytes()).
    ProcessRunner& processes() { return runner_; }
    // docker: `compose down -v` (named volumes hold the panel's database);
    // native: nothing (the adapter removes its data dir).
    void wipe();
    // Containers the deployment runs: 0 native, the compose file's services in docker mode.
    int containers() const;
    bool running() const noexcept { return runner_.running() || docker_up_; }
    // Runs a short helper command (argv expanded, not in the box) to its end
    // and returns its output; a non-zero exit or a timeout is an error
    // naming `what` and the output's tail. Its output file (helper-N.log in
    // the plugin's data dir, mode 0600: a panel's CLI may print a key) is
    // removed when the command succeeded; wipe() removes those of failures.
    // Its environment and working directory, whatever processes are declared:
    //   native: stand's environment plus LaunchConfig::env (values expanded),
    //           in LaunchConfig::working_dir (expanded; "": stand's);
    //   docker: stand's environment (plus STAND_CGROUP_PARENT when a box is
    //           set), in stand's working directory.
    // It runs as stand's user. A declared process's env, env_file,
    // working_dir and user are NOT applied: a helper that must see what the
    // panel process sees (its DATABASE_URL, its .env) gets it from
    // LaunchConfig::env (which an adapter may also copy into each process,
    // as Remnawave's does), from its argv (e.g. {"env", "K=V", ..., CLI}), or
    // from a file the CLI reads. Called from the host's calls (one thread at
    // a time), like everything here.
    std::string run_capture(const std::vector<std::string>& argv, const std::string& what, int timeout_ms);
    // What the system under test is made of on disk, for facts()
    // "artifacts": native: every process's program (argv[0], looked up in
    // PATH), every other argument that names an existing file (a script, a
    // config) and the added artifacts. Sizes are of the files themselves: a
    // symbolic link is never followed (a link into the data dir must not
    // count twice).
    boost::json::array artifacts() const;
    // The deployment's part of an adapter's facts(): "mode", "artifacts",
    // "containers", in native mode "processes" (names in start order) and
    // "process_data" {name: bytes of its data folders}, in docker mode
    // "docker_commands" {start, stop, restart, wipe: [argv...]}. The adapter
    // adds its own keys.
    boost::json::object deployment_facts() const;
    // The command lines docker mode runs (for tests and facts).
    std::vector<std::vector<std::string>> docker_commands(const std::string& action) const;
    const LaunchConfig& config() const noexcept { return config_; }

private:
    std::filesystem::path compose_file() const;
    std::string run_to_end(const std::vector<std::string>& argv, const std::string& what, int timeout_ms,
                           const std::string& log_name = "docker.log", bool keep_log = true);
    boost::json::object native_env() const;
    std::string native_cwd() const;

    stand::cpp::Host host_;
    std::string panel_;
    LaunchConfig config_;
    std::map<std::string, std::string> vars_;
    std::string compose_;
    std::vector<std::string> extra_artifacts_;
    mutable ProcessRunner runner_;
    bool docker_up_ = false;
    int helper_runs_ = 0;
};

}  // namespace stand_panel_kit
