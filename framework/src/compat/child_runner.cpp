#include "compat/child_runner.hpp"

#include <cerrno>
#include <fcntl.h>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stand::compat {
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

}  // namespace

ChildResult run_in_child(const std::function<ChildResult()>& body, std::chrono::milliseconds timeout) {
    auto started = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    };
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return {false, false, std::string("pipe failed: ") + std::strerror(errno), 0};
    pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return {false, false, std::string("fork failed: ") + std::strerror(errno), 0};
    }
    if (pid == 0) {
        ::close(fds[0]);
        rlimit no_core{0, 0};
        ::setrlimit(RLIMIT_CORE, &no_core);
        ChildResult r;
        try {
            r = body();
        } catch (const std::exception& e) {
            r = {false, false, std::string("host-side exception: ") + e.what(), 0};
        }
        write_all(fds[1], std::string(r.skipped ? "S" : r.passed ? "P" : "F") + r.message);
        ::close(fds[1]);
        ::_exit(0);
    }
    ::close(fds[1]);

    std::string message;
    bool timed_out = false;
    auto deadline = started + timeout;
    char buffer[4096];
    while (true) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timed_out = true;
            break;
        }
        pollfd pfd{fds[0], POLLIN, 0};
        int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) {
            timed_out = true;
            break;
        }
        ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // EOF: the child finished or died
        message.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    if (timed_out) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    ChildResult result;
    result.elapsed_ms = elapsed();
    if (timed_out) {
        result.message = "hung: no result within " + std::to_string(timeout.count()) + " ms (child killed)";
    } else if (WIFSIGNALED(status)) {
        result.message = signal_text(WTERMSIG(status));
    } else if (message.empty()) {
        result.message = "child exited with code " + std::to_string(WEXITSTATUS(status)) + " without a result";
    } else {
        result.passed = message[0] == 'P';
        result.skipped = message[0] == 'S';
        result.message = message.substr(1);
    }
    return result;
}

}  // namespace stand::compat
