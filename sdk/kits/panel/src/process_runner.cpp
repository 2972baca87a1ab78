#include <stand/kits/panel/process_runner.hpp>

#include <stand/cpp/executable.hpp>
#include <stand/kits/panel/file_text.hpp>
#include <stand/kits/panel/tcp_wait.hpp>
#include <stand/kits/panel/user_folders.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>

namespace stand_panel_kit {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;

struct ProcessRunner::Running {
    std::string name;
    std::unique_ptr<stand::cpp::Process> process;
    std::optional<stand_process_status> ended;
};

PanelProcess service(std::string name, std::vector<std::string> argv) {
    PanelProcess p;
    p.name = std::move(name);
    p.argv = std::move(argv);
    return p;
}

PanelProcess step(std::string name, std::vector<std::string> argv, RunWhen when) {
    PanelProcess p = service(std::move(name), std::move(argv));
    p.one_shot = true;
    p.when = when;
    return p;
}

ProcessRunner::ProcessRunner(const stand::cpp::Host& host, std::string panel, fs::path data_dir, fs::path plugin_dir,
                             std::function<std::string(const std::string&)> expand)
    : host_(host), panel_(std::move(panel)), data_dir_(std::move(data_dir)), plugin_dir_(std::move(plugin_dir)),
      expand_(std::move(expand)) {}

ProcessRunner::~ProcessRunner() {
    try {
        stop_all();
    } catch (...) {
        // the host kills what is left in the box when the instance goes away
    }
}

void ProcessRunner::set_processes(std::vector<PanelProcess> processes) {
    std::set<std::string> names;
    for (const auto& p : processes) {
        if (p.name.empty() || p.argv.empty() || p.argv.front().empty())
            throw Error(STAND_E_INVALID_ARGUMENT, panel_ + ": a declared process needs a name and an argv");
        if (!names.insert(p.name).second)
            throw Error(STAND_E_INVALID_ARGUMENT, panel_ + ": two declared processes are named '" + p.name + "'");
    }
    processes_ = std::move(processes);
}

const PanelProcess& ProcessRunner::find(const std::string& name) const {
    for (const auto& p : processes_)
        if (p.name == name) return p;
    throw Error(STAND_E_INVALID_ARGUMENT, panel_ + ": no declared process '" + name + "'");
}

fs::path ProcessRunner::log_file(const std::string& name) const { return plugin_dir_ / (name + ".log"); }

fs::path ProcessRunner::step_record(const PanelProcess& p) const { return data_dir_ / ".stand-steps" / p.name; }

void ProcessRunner::fail(stand_result code, const PanelProcess& p, const std::string& what) const {
    throw Error(code, panel_ + ": the process '" + p.name + "' " + what);
}

namespace {

bool under(const fs::path& p, const fs::path& dir) {
    const auto rel = fs::absolute(p).lexically_normal().lexically_relative(fs::absolute(dir).lexically_normal());
    return !rel.empty() && *rel.begin() != "..";
}

std::string status_text(const stand_process_status& st) {
    if (st.state == STAND_PROCESS_SIGNALED) {
        const char* abbrev = ::sigabbrev_np(st.signal);
        return "was killed by signal " + std::to_string(st.signal) + (abbrev ? std::string(" (SIG") + abbrev + ")" : "");
    }
    return "exited with status " + std::to_string(st.exit_code);
}

}  // namespace

void ProcessRunner::check_installed(const std::string& hint) const {
    for (const auto& p : processes_) {
        const std::string what = "install: the process '" + p.name + "'";
        if (!p.user.empty() && !find_user(expand_(p.user)))
            throw Error(STAND_E_NOT_FOUND, panel_ + ": " + what + " runs as the user '" + expand_(p.user) +
                                               "', which does not exist on this machine");
        const fs::path cwd = expand_(p.working_dir);
        std::error_code ec;
        if (!cwd.empty() && !under(cwd, data_dir_) && !fs::is_directory(cwd, ec))
            throw Error(STAND_E_NOT_FOUND, panel_ + ": " + what + ": its working directory " + cwd.string() +
                                               " does not exist");
        try {
            stand::cpp::require_executable(expand_(p.argv.front()), p.install_hint.empty() ? hint : p.install_hint, cwd);
        } catch (const Error& e) {
            throw Error(STAND_E_NOT_FOUND, panel_ + ": " + what + ": " + e.what());
        }
    }
}

json::object ProcessRunner::spawn_spec(const PanelProcess& p) const {
    json::array argv;
    for (const auto& a : p.argv) argv.emplace_back(expand_(a));
    json::object env;
    if (!p.env_file.empty()) env = read_env_file(expand_(p.env_file), panel_ + ": the process '" + p.name + "'");
    for (const auto& [k, v] : p.env) env[k] = expand_(v);
    json::object spec{{"argv", argv}, {"env", env}, {"output", log_file(p.name).string()}};
    if (const std::string cwd = expand_(p.working_dir); !cwd.empty()) {
        std::error_code ec;
        if (under(cwd, data_dir_)) fs::create_directories(cwd, ec);
        spec["cwd"] = cwd;
    }
    if (!p.box.empty()) spec["box"] = p.box;
    if (!p.user.empty()) spec["user"] = expand_(p.user);
    return spec;
}

void ProcessRunner::make_data_folders(const PanelProcess& p, bool empty_them) const {
    std::optional<UserIds> who;
    if (!p.user.empty() && !(who = find_user(expand_(p.user))))
        fail(STAND_E_NOT_FOUND, p, "runs as the user '" + expand_(p.user) + "', which does not exist");
    for (const auto& d : p.data) {
        const fs::path folder = data_dir_ / expand_(d);
        if (who) {
            give_folder(folder, *who, plugin_dir_, empty_them, panel_ + ": the process '" + p.name + "'");
            continue;
        }
        std::error_code ec;
        if (empty_them) fs::remove_all(folder, ec);
        fs::create_directories(folder, ec);
        if (ec) fail(STAND_E_IO, p, "needs its data folder " + folder.string() + ": " + ec.message());
    }
}

std::string ProcessRunner::log_end(const std::string& name) const {
    const fs::path log = log_file(name);
    const std::string tail = tail_of(log);
    return "its log " + log.string() + (tail.empty() ? " is empty" : " ends: " + tail);
}

std::string ProcessRunner::ended_text(Running& r) const {
    if (!r.ended) return {};
    return "the process '" + r.name + "' " + status_text(*r.ended) + "; " + log_end(r.name);
}

void ProcessRunner::cancelled(const PanelProcess& p, const std::string& state, std::uint64_t since_ns,
                              const std::string& why) const {
    char took[32];
    std::snprintf(took, sizeof took, "%.1f", static_cast<double>(host_.monotonic_ns() - since_ns) / 1e9);
    fail(STAND_E_CANCELLED, p, state + " when the call was cancelled, " + took + " s after it was started" +
                                   (why.empty() ? "" : " (" + why + ")") + "; " + log_end(p.name));
}

void ProcessRunner::run_step(const PanelProcess& p) {
    const auto t0 = host_.monotonic_ns();
    stand::cpp::Process proc(host_, spawn_spec(p));
    stand_process_status st{};
    bool ended = false;
    try {
        ended = proc.wait(p.step_timeout_ms, st);
    } catch (const Error& e) {
        if (e.code() != STAND_E_CANCELLED) throw;
        cancelled(p, "had not finished", t0, "");  // the host kills it with what it started
    }
    if (!ended) {
        proc.signal(SIGKILL);
        fail(STAND_E_TIMEOUT, p, "did not finish within " + std::to_string(p.step_timeout_ms / 1000) + " s; " +
                                     log_end(p.name));
    }
    if (st.state != STAND_PROCESS_EXITED || st.exit_code != 0)
        fail(STAND_E_IO, p, status_text(st) + "; " + log_end(p.name));
    if (p.when == RunWhen::first_start) {
        fs::create_directories(step_record(p).parent_path());
        std::ofstream(step_record(p)) << "done\n";
    }
}

std::string ProcessRunner::not_ready(const PanelProcess& p) {
    const auto& c = p.ready;
    if (!c.tcp.empty() && !accepts_tcp(expand_(c.tcp))) return "nothing accepts TCP connections on " + expand_(c.tcp);
    if (!c.unix_socket.empty() && !accepts_unix(expand_(c.unix_socket)))
        return "nothing accepts connections on the socket " + expand_(c.unix_socket);
    if (c.command.empty()) return {};
    json::array argv;
    for (const auto& a : c.command) argv.emplace_back(expand_(a));
    const fs::path log = plugin_dir_ / (p.name + "-ready.log");
    std::error_code ec;
    fs::remove(log, ec);
    stand::cpp::Process check(host_, {{"argv", argv}, {"output", log.string()}});
    stand_process_status st{};
    if (!check.wait(5000, st)) return "`" + expand_(c.command.front()) + "` did not answer within 5 s";
    if (st.state == STAND_PROCESS_EXITED && st.exit_code == 0) {
        fs::remove(log, ec);
        return {};
    }
    return "`" + expand_(c.command.front()) + "` " + status_text(st) + ": " + tail_of(log, 200);
}

// Until its ready check passes. A call the host cancels meanwhile (its
// step's timeout came before ready.timeout_ms) names the process as the
// timeout does: what it waited for and its log's end.
void ProcessRunner::wait_ready(const PanelProcess& p, Running& r) {
    const auto t0 = host_.monotonic_ns();
    std::string why;
    try {
        for (;;) {
            why = not_ready(p);
            if (why.empty()) return;
            stand_process_status st{};
            if (r.process->wait(0, st)) {
                r.ended = st;
                throw Error(STAND_E_IO, panel_ + ": " + ended_text(r) + " (before it was ready)");
            }
            if (host_.monotonic_ns() - t0 >= static_cast<std::uint64_t>(p.ready.timeout_ms) * 1000000ULL)
                fail(STAND_E_TIMEOUT, p, "was not ready within " + std::to_string(p.ready.timeout_ms / 1000) + " s (" +
                                             why + "); " + log_end(p.name));
            host_.sleep_ms(100);
        }
    } catch (const Error& e) {
        if (e.code() != STAND_E_CANCELLED) throw;
        cancelled(p, "was not ready", t0, why.empty() ? "its ready check had not answered yet" : why);
    }
}

void ProcessRunner::spawn(const PanelProcess& p) {
    auto r = std::make_unique<Running>();
    r->name = p.name;
    r->process = std::make_unique<stand::cpp::Process>(host_, spawn_spec(p));
    running_.push_back(std::move(r));
    wait_ready(p, *running_.back());
}

void ProcessRunner::start_entry(const PanelProcess& p) {
    const bool skip = p.one_shot && p.when == RunWhen::first_start && fs::exists(step_record(p));
    if (skip) return;
    make_data_folders(p, p.one_shot && p.when == RunWhen::first_start);
    if (p.one_shot)
        run_step(p);
    else
        spawn(p);
}

void ProcessRunner::start_all() {
    if (running()) throw Error(STAND_E_BAD_STATE, panel_ + ": already running");
    try {
        for (const auto& p : processes_)
            if (p.autostart) start_entry(p);
    } catch (...) {
        try {
            stop_all();
        } catch (...) {
            // the first error is the one to report; the host kills what is left
        }
        throw;
    }
}

bool ProcessRunner::running(const std::string& name) const {
    return std::any_of(running_.begin(), running_.end(), [&](const auto& r) { return r->name == name; });
}

void ProcessRunner::start_process(const std::string& name) {
    const auto& p = find(name);
    if (!running(name)) start_entry(p);
}

void ProcessRunner::stop_one(Running& r) {
    const PanelProcess& p = find(r.name);
    stand_process_status st{};
    if (r.ended || r.process->wait(0, st)) return;
    r.process->signal(p.stop_signal);
    if (!r.process->wait(p.stop_timeout_ms, st)) {
        r.process->signal(SIGKILL);
        r.process->wait(-1, st);
    }
}

bool ProcessRunner::stop_all() {
    const bool any = running();
    while (!running_.empty()) {
        stop_one(*running_.back());
        running_.pop_back();
    }
    return any;
}

void ProcessRunner::restart() {
    if (!running()) throw Error(STAND_E_BAD_STATE, panel_ + ": not running");
    for (auto& r : running_) {
        stand_process_status st{};
        if (find(r->name).on_restart != OnRestart::persists || (!r->ended && !r->process->wait(0, st))) continue;
        if (!r->ended) r->ended = st;
        throw Error(STAND_E_BAD_STATE,
                    panel_ + ": restart: " + ended_text(*r) + ", and it does not restart with the panel");
    }
    std::set<std::string> stopped;
    for (auto it = running_.rbegin(); it != running_.rend(); ++it) {
        if (find((*it)->name).on_restart == OnRestart::persists) continue;
        stop_one(**it);
        stopped.insert((*it)->name);
    }
    std::erase_if(running_, [&](const auto& r) { return stopped.count(r->name) != 0; });
    for (const auto& p : processes_)
        if (p.on_restart == OnRestart::restarts && (p.autostart || stopped.count(p.name))) start_entry(p);
}

std::optional<std::string> ProcessRunner::death() {
    for (auto& r : running_) {
        stand_process_status st{};
        if (!r->ended && r->process->wait(0, st)) r->ended = st;
        if (r->ended) return ended_text(*r);
    }
    return std::nullopt;
}

void ProcessRunner::require_alive() {
    if (auto d = death()) throw Error(STAND_E_BAD_STATE, panel_ + ": " + *d);
}

json::array ProcessRunner::artifacts() const {
    json::array out;
    std::set<std::string> seen;
    auto add = [&](const fs::path& p) {
        std::error_code ec;
        if (!p.is_absolute() || !fs::is_regular_file(p, ec) || !seen.insert(p.string()).second) return;
        out.push_back({{"path", p.string()}, {"bytes", bytes_on_disk(p)}});
    };
    for (const auto& p : processes_) {
        add(stand::cpp::resolve_executable(expand_(p.argv.front()), expand_(p.working_dir)));
        for (std::size_t i = 1; i < p.argv.size(); ++i) add(expand_(p.argv[i]));
    }
    return out;
}

json::object ProcessRunner::data_bytes() const {
    json::object out;
    for (const auto& p : processes_) {
        if (p.data.empty()) continue;
        std::uintmax_t bytes = 0;
        for (const auto& d : p.data) bytes += bytes_on_disk(data_dir_ / expand_(d));
        out[p.name] = bytes;
    }
    return out;
}

}  // namespace stand_panel_kit
