// Lines from a descriptor, each waited for up to a deadline: for a peer (a
// remote command over ssh, a controller) that may stop answering without
// closing its end.
#pragma once

#include <chrono>
#include <string>

namespace stand::posix {

class LineReader {
public:
    explicit LineReader(int fd) : fd_(fd) {}  // not owned; read only through this reader

    enum class Got { line, timeout, end };
    // The next line (without its '\n') in `line`; `timeout` when none came
    // complete within `within`, `end` when the descriptor ended or failed
    // first (what was read of an unfinished last line is dropped).
    Got read_line(std::string& line, std::chrono::milliseconds within);

private:
    int fd_;
    std::string pending_;  // what was read past the last line
};

}  // namespace stand::posix
