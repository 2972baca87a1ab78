// Runs a function in a forked child so that a crash or a hang in plugin code
// becomes a failed result (naming the signal or the timeout) instead of
// taking the host down.
#pragma once

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
// threaded process would copy locked mutexes into the child).
ChildResult run_in_child(const std::function<ChildResult()>& body, std::chrono::milliseconds timeout);

}  // namespace stand::child
