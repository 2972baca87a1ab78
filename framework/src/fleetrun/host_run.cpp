#include "fleetrun/host_run.hpp"

#include "fleet/fleet_error.hpp"
#include "fleet/remote_process.hpp"
#include "fleet/remote_stand.hpp"
#include "fleetrun/controller_load.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <thread>

namespace stand::fleetrun {
namespace {

namespace json = boost::json;

// Exit 0 while the stand whose pid is in the file $1 runs.
constexpr const char* kStillRunning =
    "p=$(cat \"$1\" 2>/dev/null) && [ -n \"$p\" ] && kill -0 \"$p\" 2>/dev/null && "
    "tr '\\0' ' ' < /proc/\"$p\"/cmdline | grep -q 'stand run'";

// --fleet-host: the host runs its part alone, whatever "hosts" its copy of
// the scenario names.
std::vector<std::string> remote_command(const HostRunRequest& request, const std::string& host) {
    const std::string root = remote_run_root(request.run_name);
    std::vector<std::string> argv{fleet::install_dir() + "/bin/stand", "run",
                                  root + "/request/" + request.scenario_file_name, "--run-dir", root + "/run",
                                  "--param-file", root + "/request/params.json", "--fleet-host", host};
    for (std::size_t i = 0; i < request.plugins.size(); ++i)
        argv.insert(argv.end(), {"--plugin", request.plugins[i].id + "=@" + root + "/request/plugin-" +
                                                 std::to_string(i) + ".json"});
    return fleet::launched(root + "/pid", argv);
}

void send_request(const fleet::SshSession& session, const HostRunRequest& request) {
    const std::string dir = remote_run_root(request.run_name) + "/request/";
    fleet::upload_private_file(session, dir + request.scenario_file_name, request.scenario_text);
    fleet::upload_private_file(session, dir + "params.json", json::serialize(request.params));
    for (std::size_t i = 0; i < request.plugins.size(); ++i)
        fleet::upload_private_file(session, dir + "plugin-" + std::to_string(i) + ".json", json::serialize(request.plugins[i].config));
}

}  // namespace

std::string remote_run_root(const std::string& run_name) { return ".stand/runs/" + run_name; }

// The remote run directory into `local_dir`; false (with `problem` set when
// it is still empty) when it cannot be copied.
bool fetch_run_dir(const fleet::SshSession& session, const std::string& remote_dir, const std::filesystem::path& local_dir,
           std::string& problem) {
    try {
        std::filesystem::create_directories(local_dir);
        const auto r = session.run_into({"tar", "-cf", "-", "-C", remote_dir, "."},
                                        {"tar", "-xf", "-", "-C", local_dir.string()}, std::chrono::seconds(600));
        if (r.exit_code == 0) return true;
        if (problem.empty()) problem = "could not copy ~/" + remote_dir + " back: " + fleet::last_line(r.err);
    } catch (const std::exception& e) {
        if (problem.empty()) problem = std::string("could not copy its run directory back: ") + e.what();
    }
    return false;
}

bool still_running(const fleet::SshSession& session, const std::string& remote_dir) {
    const std::string root = std::filesystem::path(remote_dir).parent_path().string();
    return session.run({"sh", "-c", kStillRunning, "sh", root + "/pid"}, {}, std::chrono::seconds(30)).exit_code == 0;
}

namespace {

// ssh ends with 255 both when the connection drops and when the remote stand
// dies of a signal; a fresh connection tells the two apart.
std::string started_run_problem(const fleet::SshSession& session, const std::string& remote_dir, const std::string& error) {
    try {
        if (!still_running(session, remote_dir))
            return "host " + session.target().name + ": its stand was killed (it ended by a signal, e.g. SIGKILL or the "
                   "OOM killer, and left no exit code; the connection is fine)";
    } catch (const std::exception&) {
        // no connection now either: lost, as the error says
    }
    return error + " (its run may go on there, in ~/" + remote_dir + ")";
}

}  // namespace

std::string relayed_host_line(const std::string& line) {
    const auto at = line.find("; finish with: stand run --resume ");
    return at == std::string::npos ? line : line.substr(0, at);
}

HostRunOutcome run_on_host(const fleet::SshSession& session, const HostRunRequest& request,
                           const std::filesystem::path& local_dir, const std::atomic<bool>& interrupted,
                           const std::function<void(const std::string&)>& on_line) {
    HostRunOutcome outcome;
    outcome.remote_dir = remote_run_root(request.run_name) + "/run";
    bool started = false;
    try {
        send_request(session, request);
        fleet::RemoteInterrupter interrupter(session, interrupted);
        started = true;
        const auto answer = [&](const std::string& line) -> std::optional<std::string> {
            if (const long pid = fleet::remote_pid_of(line)) interrupter.set_pid(pid);
            else if (auto reply = answer_controller_load(line, session.target(), interrupted)) return reply;
            else on_line(relayed_host_line(line));
            return std::nullopt;
        };
        outcome.exit_code = session.stream_answering(remote_command(request, session.target().name), answer);
    } catch (const std::exception& e) {
        outcome.problem = e.what();
        if (started) outcome.problem = started_run_problem(session, outcome.remote_dir, e.what());
    }
    if (started) outcome.fetched = fetch_run_dir(session, outcome.remote_dir, local_dir, outcome.problem);
    return outcome;
}

}  // namespace stand::fleetrun
