#include "host/process/tracked_child.hpp"

#include "child/process_tree.hpp"

#include <stand/cpp/error.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace stand::host {
namespace {

using stand::cpp::Error;
using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kPollStep{5};

// `how` is a CLD_* code, `value` the exit code or signal number.
void set_ended(stand_process_status& s, int how, int value) {
    if (how == CLD_EXITED) {
        s.state = STAND_PROCESS_EXITED;
        s.exit_code = value;
    } else {
        s.state = STAND_PROCESS_SIGNALED;
        s.signal = value;
    }
}

}  // namespace

TrackedChild::TrackedChild(pid_t pid, bool own_group, std::string output)
    : pid_(pid), own_group_(own_group), output_(std::move(output)) {
    pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    status_.struct_size = sizeof(stand_process_status);
    status_.state = STAND_PROCESS_RUNNING;
    status_.pid = pid;
}

TrackedChild::~TrackedChild() {
    terminate();
    if (pidfd_ >= 0) ::close(pidfd_);
}

bool TrackedChild::ended_locked() {
    if (ended_) return true;
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
        // ECHILD: someone else reaped it (SIGCHLD ignored, a stray waitpid(-1)).
        if (errno != ECHILD) return false;
        ended_ = reaped_ = true;
        set_ended(status_, CLD_EXITED, -1);
        return true;
    }
    if (info.si_pid == 0) return false;
    set_ended(status_, info.si_code, info.si_status);
    ended_ = true;
    return true;
}

int32_t TrackedChild::signal(int signal_number) {
    std::lock_guard lock(mutex_);
    if (ended_locked()) return STAND_OK_NOTHING_TO_DO;
    // Those that left its group first, while the tree still leads back to it.
    if (signal_number == SIGKILL) child::kill_descendants(pid_);
    if (::kill(own_group_ ? -pid_ : pid_, signal_number) == 0) return STAND_OK;
    int err = errno;
    if (err == ESRCH) return STAND_OK_NOTHING_TO_DO;
    if (err == EINVAL) throw Error(STAND_E_INVALID_ARGUMENT, "invalid signal " + std::to_string(signal_number));
    throw Error(STAND_E_IO, "kill " + std::to_string(pid_) + ": " + std::generic_category().message(err));
}

bool TrackedChild::wait(std::int64_t timeout_ms, stand_process_status& status) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max<std::int64_t>(timeout_ms, 0));
    while (true) {
        {
            std::lock_guard lock(mutex_);
            status = status_;
            if (ended_locked()) {
                status = status_;
                return true;
            }
        }
        std::int64_t left = -1;
        if (timeout_ms >= 0) {
            left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return false;
        }
        block_until_exit(left);
    }
}

// Returns on exit, after `timeout_ms` (< 0: no limit) or earlier (spuriously).
void TrackedChild::block_until_exit(std::int64_t timeout_ms) const {
    if (pidfd_ >= 0) {
        pollfd p{pidfd_, POLLIN, 0};
        int ms = timeout_ms < 0 ? -1 : static_cast<int>(std::min<std::int64_t>(timeout_ms, INT_MAX));
        if (::poll(&p, 1, ms) >= 0 || errno == EINTR) return;
    }
    auto step = timeout_ms < 0 ? kPollStep : std::min(kPollStep, std::chrono::milliseconds(timeout_ms));
    std::this_thread::sleep_for(step);
}

void TrackedChild::terminate() noexcept {
    std::lock_guard lock(mutex_);
    if (reaped_) return;
    if (!ended_) child::kill_descendants(pid_);
    // An unreaped leader keeps the group id reserved, so this cannot hit a stranger.
    if (own_group_)
        ::kill(-pid_, SIGKILL);
    else if (!ended_)
        ::kill(pid_, SIGKILL);
    int raw = 0;
    pid_t r;
    do r = ::waitpid(pid_, &raw, 0);
    while (r < 0 && errno == EINTR);
    if (!ended_) {
        if (r == pid_ && WIFEXITED(raw))
            set_ended(status_, CLD_EXITED, WEXITSTATUS(raw));
        else if (r == pid_ && WIFSIGNALED(raw))
            set_ended(status_, CLD_KILLED, WTERMSIG(raw));
        else
            set_ended(status_, CLD_EXITED, -1);
        ended_ = true;
    }
    reaped_ = true;
}

}  // namespace stand::host
