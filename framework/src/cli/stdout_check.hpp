// Standard output that says when it was lost: `stand report RUN --bench-json
// bmf > /dev/full` (or a full disk) must not exit 0 and leave a CI step an
// empty file. While a StdoutCheck lives, std::cout writes through C's stdout
// as before (the same buffering, the same order with stderr) but keeps the
// errno of the first write that failed; finish() flushes and turns lost
// output into exit 2 and "stand: cannot write stdout: REASON". One object,
// in main(), for every command.
#pragma once

#include <memory>
#include <streambuf>

namespace stand::cli {

class StdoutCheck {
public:
    StdoutCheck();
    ~StdoutCheck();
    StdoutCheck(const StdoutCheck&) = delete;
    StdoutCheck& operator=(const StdoutCheck&) = delete;

    // `code` unless standard output was lost: then the reason on stderr and
    // kExitUsage (a command that already failed keeps its own code).
    int finish(int code);

private:
    class Buffer;
    std::unique_ptr<Buffer> buffer_;
    std::streambuf* previous_;
};

}  // namespace stand::cli
