#include "child/child_runner.hpp"

#include "child/process_tree.hpp"
#include "text/secrets.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stand::child {
namespace {

void write_all(int fd, const std::string& data) {
    std::size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

std::string signal_text(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    return std::string("crashed with SIG") + (abbrev ? abbrev : "?") + " (signal " + std::to_string(sig) + ")";
}

// The last `max_lines` non-empty lines of what the child wrote to stderr.
std::string stderr_tail(int fd, std::size_t max_lines = 3) {
    if (fd < 0) return {};
    off_t size = ::lseek(fd, 0, SEEK_END);
    if (size <= 0) return {};
    off_t from = size > 4096 ? size - 4096 : 0;
    std::string text(static_cast<std::size_t>(size - from), '\0');
    if (::pread(fd, text.data(), text.size(), from) <= 0) return {};
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    std::size_t start = text.size(), lines = 0;
    while (start > 0 && lines < max_lines) {
        start = text.rfind('\n', start - 1);
        ++lines;
        if (start == std::string::npos) {
            start = 0;
            break;
        }
    }
    std::string tail = text.substr(start == 0 ? 0 : start + 1);
    for (char& c : tail)
        if (c == '\n') c = '|';
    return tail;
}

// The child's side: runs `body`, writes its result, leaves nothing running.
[[noreturn]] void child_side(const std::function<ChildResult()>& body, int read_fd, int write_fd, int err_fd) {
    ::close(read_fd);
    ::setpgid(0, 0);  // out of the terminal's foreground group: the parent decides when this child ends
    // What the body's processes leave behind (a shell's orphaned child)
    // stays below this child, to be killed with the rest at the end.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    if (err_fd >= 0) ::dup2(err_fd, STDERR_FILENO);
    ChildResult r;
    try {
        r = body();
    } catch (const std::exception& e) {
        r = {false, false, std::string("uncaught C++ exception (plugins must not throw through the C ABI): ") + e.what(), 0};
    }
    // Scrubbed here: what the body's plugin marked secret is known in this process only.
    write_all(write_fd, std::string(r.skipped ? "S" : r.passed ? "P" : "F") + text::secrets().scrub(r.message));
    kill_descendants(::getpid());  // nothing the body started outlives it, whatever failed
    ::close(write_fd);
    ::_exit(0);
}

}  // namespace

ChildResult run_in_child(const std::function<ChildResult()>& body, std::chrono::milliseconds timeout,
                         const std::atomic<bool>* stop) {
    auto started = std::chrono::steady_clock::now();
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return {false, false, std::string("pipe failed: ") + std::strerror(errno), 0};
    int err_fd = ::memfd_create("stand-child-stderr", MFD_CLOEXEC);
    pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        if (err_fd >= 0) ::close(err_fd);
        return {false, false, std::string("fork failed: ") + std::strerror(errno), 0};
    }
    if (pid == 0) child_side(body, fds[0], fds[1], err_fd);
    ::close(fds[1]);

    std::string message;
    bool timed_out = false, stopped = false;
    auto deadline = started + timeout;
    char buffer[4096];
    constexpr long kStopCheckMs = 100;
    while (true) {
        if (stop && stop->load()) {
            stopped = true;
            break;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timed_out = true;
            break;
        }
        pollfd pfd{fds[0], POLLIN, 0};
        int ready = ::poll(&pfd, 1, static_cast<int>(stop ? std::min<long>(left.count(), kStopCheckMs) : left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) continue;  // the deadline and the stop flag are checked above
        ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // EOF: the child finished or died
        message.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    if (timed_out || stopped) {
        kill_descendants(pid);
        ::kill(pid, SIGKILL);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    ChildResult result;
    result.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    bool abnormal = true;
    if (stopped) {
        result.message = kInterruptedMessage;
        abnormal = false;
    } else if (timed_out) {
        result.message = "hung: no result within " + std::to_string(timeout.count()) + " ms (child killed)";
    } else if (WIFSIGNALED(status)) {
        result.message = signal_text(WTERMSIG(status));
    } else if (message.empty()) {
        result.message = "child exited with code " + std::to_string(WEXITSTATUS(status)) + " without a result";
    } else {
        abnormal = false;
        result.passed = message[0] == 'P';
        result.skipped = message[0] == 'S';
        result.message = message.substr(1);
    }
    if (abnormal)
        if (std::string tail = stderr_tail(err_fd); !tail.empty()) result.message += "; stderr: " + tail;
    if (err_fd >= 0) ::close(err_fd);
    return result;
}

}  // namespace stand::child
