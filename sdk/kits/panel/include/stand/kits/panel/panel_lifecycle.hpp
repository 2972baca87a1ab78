// The stand.lifecycle/1 part every panel adapter shares: one data dir per
// instance (<plugin data dir>/<panel>), the credentials file beside it, and a
// Launcher (the panel's declared processes, or docker compose) behind
// install, start, stop, restart, wipe and facts. An adapter derives from it
// (through PanelPlugin, panel_plugin.hpp), calls launch() from its
// constructor, writes readiness(), and fills the hooks it needs.
//
// What each call does, and the hook it runs (<call>_hook(), as the panel
// calls do: panel_plugin.hpp):
//   install  the data dir made; the mode's programs checked (native: every
//            declared process's program, user and working directory; docker:
//            the CLI and the compose command); then install_hook().
//   start    the data dir made (and the link of socket_dir() where the data
//            dir's path is too long for a socket); start_hook(); the
//            processes started in order, each waited for as it declares
//            (docker: compose up).
//   stop     the processes stopped in reverse order (docker: compose down);
//            then stop_hook().
//   restart  as the panel's operators restart it: native, the processes that
//            restart with the panel are stopped in reverse and started again
//            in order (steps run again, first-start steps not), those that
//            persist (database, cache, node) keep running; docker, `docker
//            restart` of the panel's container. start_hook() is NOT run
//            (a restart keeps the data dir as it is); then restart_hook().
//   wipe     refused while running; compose down -v in docker mode; the data
//            dir (every process's data in it), the credentials file, the
//            link of socket_dir() and the helper commands' leftover output
//            removed; then wipe_hook().
//   facts    the kit's keys, then facts_hook()'s.
//
// Threads: the host calls an instance from one thread at a time; hooks are
// called from those calls only.
#pragma once

#include <stand/kits/panel/launcher.hpp>
#include <stand/stand.hpp>

#include <boost/json.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stand_panel_kit {

class PanelLifecycle : public stand::cpp::Lifecycle {
public:
    stand_result install() override;
    stand_result start() override;
    stand_result stop() override;
    stand_result restart() override;
    stand_result wipe() override;
    // {data_dirs, credentials_file} + the launcher's (mode, artifacts,
    // containers, processes, process_data, docker_commands) + facts_hook().
    boost::json::object facts() override;

protected:
    PanelLifecycle(const stand::cpp::Host& host, std::string panel);

    // Builds the launcher. ${data_dir} is set to data_dir(), ${socket_dir}
    // to socket_dir(); `vars` add the adapter's own (port, listen, ...).
    // `install_hint` ends the message install() gives when a program the
    // mode runs is missing (how to install it, which config key names it).
    void launch(LaunchConfig config, const std::map<std::string, std::string>& vars, std::string install_hint);

    // --- hooks, each <call>_hook() (all optional but wipe_hook())
    // install(), after the kit's checks: what the mode needs besides its
    // programs (a core binary, data files): throw
    // stand::cpp::Error(STAND_E_NOT_FOUND, ...) naming it.
    virtual void install_hook() {}
    // start(), before the processes start (data dir made): first-start
    // configuration through the panel's own CLI, for example.
    virtual void start_hook() {}
    // stop(), after the processes are gone.
    virtual void stop_hook() {}
    // restart(), after the panel's processes were started again: a session may be gone.
    virtual void restart_hook() {}
    // wipe(), after the files are gone: drop cached ids and the API session.
    virtual void wipe_hook() = 0;
    // facts(): the adapter's keys (versions, settings it applied, ...).
    virtual boost::json::object facts_hook() { return {}; }

    // For install_hook() in docker mode: every image is present locally
    // (`docker image inspect`); STAND_E_NOT_FOUND names the first one missing.
    void check_docker_images(const std::vector<std::string>& images);

    const stand::cpp::Host& host() const noexcept { return host_; }
    const std::string& panel_name() const noexcept { return panel_; }
    std::filesystem::path data_dir() const;
    // Where the declared processes put their unix sockets (${socket_dir}, the
    // kit's PostgreSQL, MariaDB and Redis: companions.hpp): data_dir() when
    // its path is at most 67 bytes, else /tmp/stand-s-<16 hex digits of a
    // hash of data_dir()>/data, a link to data_dir() (a socket's path may
    // not exceed 107 bytes, and run dirs are deeper than that), so the
    // sockets are still in the data dir. start() makes the link, in a folder
    // of stand's user (0711) whose name every instance on this data dir
    // computes alike, when a declared process names ${socket_dir}; a folder
    // of that name that is not such a folder is an error naming it; wipe()
    // removes both.
    std::filesystem::path socket_dir() const;
    std::filesystem::path credentials_file() const;
    Launcher& launcher() const { return *launcher_; }

private:
    void make_socket_link() const;

    stand::cpp::Host host_;
    std::string panel_;
    std::string install_hint_;
    std::unique_ptr<Launcher> launcher_;
};

}  // namespace stand_panel_kit
