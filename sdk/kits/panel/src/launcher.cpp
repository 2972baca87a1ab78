#include <stand/kits/panel/launcher.hpp>

#include <stand/cpp/executable.hpp>
#include <stand/kits/panel/file_text.hpp>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>

namespace stand_panel_kit {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;

void declare_launch_keys(stand::cpp::ConfigSpec& spec, RunMode default_mode,
                         const std::vector<std::string>& default_command) {
    spec.choice("mode", {"native", "docker"},
                "native: the command spawned into the box; docker: docker compose with the box as cgroup parent")
        .by_default(default_mode == RunMode::docker ? "docker" : "native");
    auto& command = spec.strings("command", "native: the panel's argv; ${data_dir} ${port} ${listen} are expanded")
                        .min_items(1);
    if (!default_command.empty()) command.by_default(default_command);
    spec.string_map("env", "native: environment added to the panel's");
    spec.string("working_dir", "native: the panel's working directory; default: stand's");
    spec.string("docker", "docker mode: the docker CLI (restart, image inspect), e.g. podman").by_default("docker");
    spec.strings("compose", "docker mode: the compose command; default [<docker>, \"compose\"], e.g. "
                            "[\"docker-compose\"] or [\"podman-compose\"]")
        .min_items(1);
    spec.string("box", "the box the panel runs in; \"\": none").by_default("measured");
}

LaunchConfig read_launch_config(stand::cpp::ConfigValues& cfg) {
    LaunchConfig c;
    c.mode = cfg.string("mode") == "docker" ? RunMode::docker : RunMode::native;
    c.command = cfg.strings("command");
    c.env = cfg.string_map("env");
    c.working_dir = cfg.string("working_dir");
    c.docker = cfg.string("docker");
    c.compose = cfg.optional_strings("compose").value_or(std::vector<std::string>{c.docker, "compose"});
    c.box = cfg.string("box");
    return c;
}

PanelProcess command_process(const LaunchConfig& config) {
    PanelProcess p = service("panel", config.command);
    p.env = config.env;
    p.working_dir = config.working_dir;
    p.box = config.box;
    return p;
}

Launcher::Launcher(const stand::cpp::Host& host, std::string panel, LaunchConfig config, const fs::path& data_dir)
    : host_(host), panel_(std::move(panel)), config_(std::move(config)),
      runner_(host, panel_, data_dir, host.data_dir(), [this](const std::string& text) { return expand(text); }) {
    if (config_.compose.empty()) config_.compose = {config_.docker, "compose"};
    if (config_.mode == RunMode::native && config_.processes.empty() && !config_.command.empty())
        config_.processes.push_back(command_process(config_));
    runner_.set_processes(config_.processes);
}

Launcher::~Launcher() {
    try {
        stop();
    } catch (...) {
        // the host kills what is left in the box when the instance goes away
    }
}

std::string Launcher::expand(const std::string& text) const {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text.compare(i, 2, "${") == 0) {
            auto end = text.find('}', i);
            if (end != std::string::npos) {
                auto it = vars_.find(text.substr(i + 2, end - i - 2));
                if (it != vars_.end()) {
                    out += it->second;
                    i = end + 1;
                    continue;
                }
            }
        }
        out += text[i++];
    }
    return out;
}

fs::path Launcher::compose_file() const { return fs::path(host_.data_dir()) / "compose.yml"; }

void Launcher::write_compose_file() const {
    std::ofstream out(compose_file());
    out << expand(compose_);
    if (!out.flush()) throw Error(STAND_E_IO, panel_ + ": cannot write " + compose_file().string());
}

std::vector<std::string> Launcher::compose_argv(const std::vector<std::string>& tail) const {
    auto v = config_.compose;
    for (const char* a : {"-p", config_.project.c_str(), "-f"}) v.emplace_back(a);
    v.push_back(compose_file().string());
    v.insert(v.end(), tail.begin(), tail.end());
    return v;
}

std::vector<std::vector<std::string>> Launcher::docker_commands(const std::string& action) const {
    if (action == "start") return {compose_argv({"up", "-d"})};
    if (action == "stop") return {compose_argv({"down"})};
    if (action == "wipe") return {compose_argv({"down", "-v"})};
    if (action == "restart") return {{config_.docker, "restart", config_.container}};
    throw Error(STAND_E_INVALID_ARGUMENT, panel_ + ": unknown docker action " + action);
}

std::string Launcher::run_capture(const std::vector<std::string>& argv, const std::string& what, int timeout_ms) {
    std::vector<std::string> expanded;
    for (const auto& a : argv) expanded.push_back(expand(a));
    return run_to_end(expanded, what, timeout_ms, "helper-" + std::to_string(++helper_runs_) + ".log", false);
}

std::string Launcher::run_to_end(const std::vector<std::string>& argv, const std::string& what, int timeout_ms,
                                 const std::string& log_name, bool keep_log) {
    const fs::path log = fs::path(host_.data_dir()) / log_name;
    fs::remove(log);
    json::array args;
    for (const auto& a : argv) args.emplace_back(a);
    json::object spec{{"argv", args}, {"output", log.string()}};
    if (config_.mode == RunMode::docker) {
        if (!config_.box.empty())
            spec["env"] = json::object{{"STAND_CGROUP_PARENT", "${stand.box." + config_.box + "}"}};
    } else {
        spec["env"] = native_env();
        if (auto cwd = native_cwd(); !cwd.empty()) spec["cwd"] = cwd;
    }
    stand::cpp::Process p(host_, spec);
    stand_process_status status{};
    const std::string named = "`" + argv[0] + (argv.size() > 1 ? " " + argv[1] : std::string()) + "` (" + what + ")";
    if (!p.wait(timeout_ms, status)) {
        p.signal(SIGKILL);  // and every process it started (stand.process signal)
        throw Error(STAND_E_TIMEOUT, panel_ + ": " + named + " did not finish in " + std::to_string(timeout_ms / 1000) +
                                         " s; it and every process it started were killed");
    }
    std::string output = read_text(log);
    if (status.state != STAND_PROCESS_EXITED || status.exit_code != 0)
        throw Error(STAND_E_IO, panel_ + ": " + named + " failed: " + tail_text(output));
    if (!keep_log) fs::remove(log);
    return output;
}

void Launcher::check_installed(const std::string& hint) const {
    auto missing = [&](const std::string& what) {
        throw Error(STAND_E_NOT_FOUND, panel_ + ": install: " + what + (hint.empty() ? "" : "; " + hint));
    };
    if (config_.mode == RunMode::native) {
        if (config_.processes.empty()) missing("no command to start the panel (config.command)");
        return runner_.check_installed(hint);
    }
    if (!stand::cpp::is_executable_file(stand::cpp::resolve_executable(config_.docker)))
        missing("the docker CLI '" + config_.docker + "' is not installed (config.docker)");
    if (!stand::cpp::is_executable_file(stand::cpp::resolve_executable(config_.compose.front())))
        missing("the compose command '" + config_.compose.front() + "' is not installed (config.compose)");
    runner_.check_installed(hint);
}

json::array Launcher::artifacts() const {
    json::array out;
    std::vector<fs::path> folders;
    for (const auto& a : extra_artifacts_) {
        const fs::path p = fs::path(expand(a)).lexically_normal();
        std::error_code ec;
        if (!fs::exists(fs::symlink_status(p, ec))) continue;
        out.push_back({{"path", p.string()}, {"bytes", bytes_on_disk(p)}});
        if (fs::is_directory(fs::symlink_status(p, ec))) folders.push_back(p);
    }
    // A process's file inside an added folder (a script of a checkout) is counted with it.
    for (auto& a : runner_.artifacts()) {
        const fs::path p = std::string(a.as_object().at("path").as_string());
        const bool inside = std::any_of(folders.begin(), folders.end(), [&](const fs::path& f) {
            const auto rel = p.lexically_relative(f);
            return !rel.empty() && *rel.begin() != "..";
        });
        if (!inside) out.push_back(std::move(a));
    }
    return out;
}

json::object Launcher::native_env() const {
    json::object env;
    for (const auto& [k, v] : config_.env) env[k] = expand(v);
    return env;
}

std::string Launcher::native_cwd() const { return config_.working_dir.empty() ? std::string() : expand(config_.working_dir); }

json::object Launcher::deployment_facts() const {
    const bool docker = config_.mode == RunMode::docker;
    json::object f{{"mode", docker ? "docker" : "native"}, {"artifacts", artifacts()}, {"containers", containers()}};
    if (!docker || !runner_.processes().empty()) {
        json::array names;
        for (const auto& p : runner_.processes()) names.emplace_back(p.name);
        f["processes"] = names;
        f["process_data"] = runner_.data_bytes();
    }
    if (docker) {
        json::object cmds;
        for (const char* a : {"start", "stop", "restart", "wipe"}) {
            json::array list;
            for (const auto& argv : docker_commands(a)) list.push_back(json::value_from(argv));
            cmds[a] = list;
        }
        f["docker_commands"] = cmds;
    }
    return f;
}

void Launcher::start() {
    if (running()) throw Error(STAND_E_BAD_STATE, panel_ + ": already running");
    if (config_.mode == RunMode::native) return runner_.start_all();
    write_compose_file();
    run_to_end(docker_commands("start").front(), "compose up", 300000);
    docker_up_ = true;
    runner_.start_all();
}

void Launcher::stop() {
    if (config_.mode == RunMode::native) {
        runner_.stop_all();
        return;
    }
    runner_.stop_all();
    if (!docker_up_) return;
    docker_up_ = false;
    run_to_end(docker_commands("stop").front(), "compose down", 120000);
}

void Launcher::wipe() {
    if (running()) throw Error(STAND_E_BAD_STATE, panel_ + ": stop before wipe");
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(host_.data_dir(), ec))
        if (entry.path().filename().string().rfind("helper-", 0) == 0) fs::remove(entry.path(), ec);
    if (config_.mode != RunMode::docker) return;
    if (!fs::exists(compose_file())) write_compose_file();
    run_to_end(docker_commands("wipe").front(), "compose down -v", 120000);
}

int Launcher::containers() const {
    if (config_.mode != RunMode::docker) return 0;
    int n = 0;
    for (std::size_t at = compose_.find("container_name:"); at != std::string::npos;
         at = compose_.find("container_name:", at + 1))
        ++n;
    return n;
}

void Launcher::restart() {
    if (config_.mode == RunMode::native) return runner_.restart();
    if (!docker_up_) throw Error(STAND_E_BAD_STATE, panel_ + ": not running");
    run_to_end(docker_commands("restart").front(), "docker restart", 120000);
}

}  // namespace stand_panel_kit
