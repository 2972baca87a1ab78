// The host side of a plugin worker (see worker_main.hpp): spawns
// `stand __worker` as a session leader, sends calls with deadlines, and turns
// a crash, a hang, an interrupt or garbage on the wire into a failed reply
// that names the method and the cause. A worker that is killed is killed with
// its whole session (session_kill.hpp): nothing the plugin started outlives it.
#pragma once

#include "host/plugin_host.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <filesystem>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

namespace stand::isolation {

struct WorkerOptions {
    std::filesystem::path plugin_file;
    std::string plugin_id;          // for messages and log prefixes
    host::HostConfig host;          // run_dir, allow_remote_targets, boxes, log, progress
    std::filesystem::path stand_binary = "/proc/self/exe";
    std::chrono::milliseconds cancel_grace{2000};  // after a timeout: SIGUSR1, then SIGKILL
    // The run's interrupt flag (SIGINT/SIGTERM), polled during every call:
    // once set, the call is cancelled (SIGUSR1, stand.progress/1 cancelled())
    // and every call ends within `interrupt_grace` of the moment the worker
    // first saw it; past that the worker's session is killed.
    const std::atomic<bool>* interrupted = nullptr;
    std::chrono::milliseconds interrupt_grace{1000};
};

struct WorkerReply {
    enum class Failure { kNone, kCrashed, kHung, kProtocol, kInterrupted };
    Failure failure = Failure::kNone;
    int32_t code = 0;            // the plugin's stand_result when failure == kNone
    std::string error;           // the plugin's message, or the cause of the failure
    boost::json::value output;   // parsed sink output (null when none)
    bool ok() const noexcept { return failure == Failure::kNone && code >= 0; }
};

class PluginWorker {
public:
    // Spawns the worker process; throws std::runtime_error if it cannot.
    explicit PluginWorker(WorkerOptions options);
    ~PluginWorker();  // kills the worker's session and reaps the worker if it is still alive
    PluginWorker(const PluginWorker&) = delete;
    PluginWorker& operator=(const PluginWorker&) = delete;

    WorkerReply create(const std::string& config_json, std::chrono::milliseconds timeout);
    WorkerReply call(const std::string& method, const boost::json::object& args, std::chrono::milliseconds timeout);
    // The host's HTTP call log of this instance.
    WorkerReply http_calls(std::chrono::milliseconds timeout);
    // The instance's processes that ended before it released them
    // (host::EndedProcess as JSON, see ended_processes_from_json()).
    WorkerReply ended_processes(std::chrono::milliseconds timeout);
    // destroy() in the worker, then wait for it to exit (killed after `timeout`).
    WorkerReply shutdown(std::chrono::milliseconds timeout);

    pid_t pid() const noexcept { return pid_; }
    bool alive() const noexcept { return pid_ > 0 && !dead_; }
    const std::filesystem::path& stderr_log() const noexcept { return stderr_log_; }

private:
    WorkerReply round_trip(boost::json::object request, const std::string& what, std::chrono::milliseconds timeout);
    WorkerReply died(const std::string& what);
    void kill_and_reap();
    // kill_and_reap(), then a failed reply saying why.
    WorkerReply killed(WorkerReply::Failure failure, std::string error);
    // True once the run is interrupted; the first time, asks the plugin to stop (SIGUSR1).
    bool poll_interrupt();

    WorkerOptions options_;
    std::unique_ptr<class LineChannel> channel_;
    pid_t pid_ = -1;
    bool dead_ = false;
    int exit_status_ = 0;
    std::int64_t next_id_ = 1;
    std::optional<std::chrono::steady_clock::time_point> interrupted_at_;  // when a call first saw the interrupt
    std::filesystem::path stderr_log_;
};

}  // namespace stand::isolation
