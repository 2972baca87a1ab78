// Runs a function in a forked child so that a crash or a hang in plugin code
// becomes a failed result (naming the signal or the timeout) instead of
// taking the host down.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>

namespace stand::child {

struct ChildResult {
    bool passed = false;
    bool skipped = false;
    std::string message;
    double elapsed_ms = 0;
};

// `body` runs in the child; what it returns travels back through a pipe. The
// child gets no core dumps (RLIMIT_CORE 0) and its stderr is captured: when
// the child crashes, hangs or exits without a result, the last lines it wrote
// are appended to the message. The caller must be single-threaded (fork in a
// threaded process would copy locked mutexes into the child). The child runs
// in a process group of its own, so a terminal's Ctrl-C reaches the caller
// alone: once `*stop` is set (checked every 100 ms), or the timeout passes,
// the child and everything it started are killed and the result says which.
ChildResult run_in_child(const std::function<ChildResult()>& body, std::chrono::milliseconds timeout,
                         const std::atomic<bool>* stop = nullptr);

// The message of a result ended by `stop`.
inline constexpr const char* kInterruptedMessage =
    "interrupted (a stop signal): the check and every process it started were killed";

}  // namespace stand::child
