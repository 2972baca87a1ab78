#include "isolation/plugin_worker.hpp"

#include "isolation/line_channel.hpp"
#include "isolation/session_kill.hpp"
#include "isolation/worker_main.hpp"
#include "isolation/worker_message.hpp"
#include "posix/cloexec.hpp"
#include "text/secrets.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stand::isolation {
namespace {

std::string signal_name(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    return std::string("SIG") + (abbrev ? abbrev : "?") + " (signal " + std::to_string(sig) + ")";
}

std::string last_lines(const std::filesystem::path& file, std::size_t max_lines = 3) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    std::string out;
    for (std::size_t i = lines.size() > max_lines ? lines.size() - max_lines : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : " | ") + lines[i];
    return out;
}

// How often a call looks at the run's interrupt flag.
constexpr std::chrono::milliseconds kInterruptPoll{50};

}  // namespace

PluginWorker::PluginWorker(WorkerOptions options) : options_(std::move(options)) {
    std::error_code ec;
    auto log_dir = options_.host.run_dir / "logs";
    std::filesystem::create_directories(log_dir, ec);
    stderr_log_ = log_dir / ("worker-" + options_.plugin_id + ".log");
    int err_fd = ::open(stderr_log_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (err_fd < 0) throw std::runtime_error("cannot open " + stderr_log_.string() + ": " + std::strerror(errno));

    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        ::close(err_fd);
        throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
    }
    std::string binary = options_.stand_binary.string();
    char arg0[] = "stand";
    char arg1[] = "__worker";
    char* argv[] = {arg0, arg1, nullptr};
    pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ < 0) {
        ::close(sv[0]);
        ::close(sv[1]);
        ::close(err_fd);
        throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    }
    if (pid_ == 0) {
        // A session of its own: a terminal's Ctrl-C reaches the host only (the
        // host decides), and what the plugin starts can be found and killed.
        ::setsid();
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        int null_fd = ::open("/dev/null", O_RDONLY);
        if (null_fd >= 0) ::dup2(null_fd, 0);
        ::dup2(err_fd, 1);
        ::dup2(err_fd, 2);
        ::dup2(sv[1], kWorkerChannelFd);  // dup2 clears CLOEXEC on the new fd
        posix::cloexec_from(kWorkerChannelFd + 1);
        ::execv(binary.c_str(), argv);
        ::_exit(127);
    }
    ::close(sv[1]);
    ::close(err_fd);
    channel_ = std::make_unique<LineChannel>(sv[0]);
}

PluginWorker::~PluginWorker() { kill_and_reap(); }

void PluginWorker::kill_and_reap() {
    if (pid_ <= 0 || dead_) return;
    kill_session(pid_);  // before the reap: the unreaped worker keeps its session id from being reused
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &exit_status_, 0) < 0 && errno == EINTR) {
    }
    dead_ = true;
}

WorkerReply PluginWorker::died(const std::string& what) {
    WorkerReply reply;
    reply.failure = WorkerReply::Failure::kCrashed;
    if (!dead_) {
        // Whatever the plugin started goes with it; the exit status is the worker's own.
        siginfo_t info{};
        while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
        }
        kill_session(pid_);
        while (::waitpid(pid_, &exit_status_, 0) < 0 && errno == EINTR) {
        }
        dead_ = true;
    }
    // The stop request (SIGUSR1) can reach a worker still starting, before it
    // handles it: that ends it, and it is the interrupt, not a crash.
    if (interrupted_at_ && WIFSIGNALED(exit_status_) && WTERMSIG(exit_status_) == SIGUSR1) {
        reply.failure = WorkerReply::Failure::kInterrupted;
        reply.error = "interrupted during " + what + " (the worker was still starting and ended at the stop request)";
        return reply;
    }
    if (WIFSIGNALED(exit_status_)) reply.error = "crashed with " + signal_name(WTERMSIG(exit_status_));
    else reply.error = "worker exited with code " + std::to_string(WEXITSTATUS(exit_status_));
    reply.error += " during " + what;
    if (auto tail = last_lines(stderr_log_); !tail.empty()) reply.error += "; stderr: " + tail;
    return reply;
}

WorkerReply PluginWorker::killed(WorkerReply::Failure failure, std::string error) {
    kill_and_reap();
    WorkerReply r;
    r.failure = failure;
    r.error = std::move(error);
    return r;
}

bool PluginWorker::poll_interrupt() {
    if (interrupted_at_) return true;
    if (options_.interrupted == nullptr || !options_.interrupted->load()) return false;
    interrupted_at_ = std::chrono::steady_clock::now();
    ::kill(pid_, SIGUSR1);  // stand.progress/1 cancelled() answers 1 from now on
    return true;
}

WorkerReply PluginWorker::round_trip(boost::json::object request, const std::string& what,
                                     std::chrono::milliseconds timeout) {
    if (dead_) {
        WorkerReply r;
        r.failure = WorkerReply::Failure::kCrashed;
        r.error = "worker is gone (earlier failure); cannot run " + what;
        return r;
    }
    std::int64_t id = next_id_++;
    request["id"] = id;
    if (!channel_->send(request)) return died(what);
    auto deadline = std::chrono::steady_clock::now() + timeout;
    bool cancel_sent = false;  // after the call's timeout
    while (true) {
        auto now = std::chrono::steady_clock::now();
        const bool interrupted = poll_interrupt();
        const auto until = interrupted ? std::min(deadline, *interrupted_at_ + options_.interrupt_grace) : deadline;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - now);
        if (left.count() <= 0) {
            if (interrupted)
                return killed(WorkerReply::Failure::kInterrupted,
                              "interrupted: " + what + " did not return within " +
                                  std::to_string(options_.interrupt_grace.count()) +
                                  " ms of the interrupt (the worker and its processes were killed)");
            if (cancel_sent)
                return killed(WorkerReply::Failure::kHung,
                              what + " did not return within " + std::to_string(timeout.count()) + " ms, nor " +
                                  std::to_string(options_.cancel_grace.count()) + " ms after cancellation (worker killed)");
            ::kill(pid_, SIGUSR1);  // ask the plugin to stop (stand.progress/1 cancelled())
            cancel_sent = true;
            deadline = now + options_.cancel_grace;
            continue;
        }
        if (options_.interrupted != nullptr && !interrupted) left = std::min(left, kInterruptPoll);
        boost::json::object m;
        auto status = channel_->receive(m, left);
        if (status == LineChannel::Status::kClosed) return died(what);
        if (status == LineChannel::Status::kTimeout) continue;
        auto message = read_worker_message(m, id);
        if (message.kind == WorkerMessage::Kind::log) {
            if (options_.host.log) options_.host.log(message.level, options_.plugin_id, message.message);
            continue;
        }
        if (message.kind == WorkerMessage::Kind::secret) {
            text::secrets().add(message.message);
            continue;
        }
        if (message.kind == WorkerMessage::Kind::progress) {
            if (options_.host.progress) options_.host.progress(options_.plugin_id, message.fraction, message.message);
            continue;
        }
        if (message.kind == WorkerMessage::Kind::reply) {
            WorkerReply r;
            r.code = message.code;
            r.error = std::move(message.error);
            r.output = std::move(message.output);
            if (cancel_sent) {  // the call's timeout came first; what the plugin said names what it waited for
                r.error = r.code >= 0 ? what + " finished only after the timeout (cancelled)"
                                      : what + " did not return within " + std::to_string(timeout.count()) +
                                            " ms and was cancelled: " +
                                            (r.error.empty() ? std::string(stand_result_name(r.code)) : r.error);
                r.code = STAND_E_TIMEOUT;
            }
            return r;
        }
        kill_and_reap();
        WorkerReply r;
        r.failure = WorkerReply::Failure::kProtocol;
        r.error = "worker sent an unexpected message during " + what + " (" + message.problem +
                  "): " + boost::json::serialize(m).substr(0, 200);
        return r;
    }
}

WorkerReply PluginWorker::create(const std::string& config_json, std::chrono::milliseconds timeout) {
    boost::json::object boxes;
    for (const auto& [name, dirs] : options_.host.boxes) {
        boost::json::array list;
        for (const auto& d : dirs) list.emplace_back(d.string());
        boxes[name] = std::move(list);
    }
    return round_trip({{"op", "create"},
                       {"plugin", options_.plugin_file.string()},
                       {"config", config_json},
                       {"run_dir", options_.host.run_dir.string()},
                       {"allow_remote", options_.host.allow_remote_targets},
                       {"boxes", std::move(boxes)}},
                      "create", timeout);
}

WorkerReply PluginWorker::call(const std::string& method, const boost::json::object& args,
                               std::chrono::milliseconds timeout) {
    return round_trip({{"op", "call"}, {"method", method}, {"args", args}}, method, timeout);
}

WorkerReply PluginWorker::http_calls(std::chrono::milliseconds timeout) {
    return round_trip({{"op", "http_calls"}}, "http_calls", timeout);
}

WorkerReply PluginWorker::ended_processes(std::chrono::milliseconds timeout) {
    return round_trip({{"op", "ended_processes"}}, "ended_processes", timeout);
}

WorkerReply PluginWorker::shutdown(std::chrono::milliseconds timeout) {
    WorkerReply r = round_trip({{"op", "destroy"}}, "destroy", timeout);
    if (!dead_) {
        // Until it exits (not reaped yet), then its session goes with it.
        auto deadline = std::chrono::steady_clock::now() + timeout;
        if (interrupted_at_) deadline = std::min(deadline, *interrupted_at_ + options_.interrupt_grace);
        while (std::chrono::steady_clock::now() < deadline) {
            siginfo_t info{};
            if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_)
                break;
            ::usleep(10000);
        }
        kill_and_reap();
    }
    return r;
}

}  // namespace stand::isolation
