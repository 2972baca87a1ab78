#include "posix/line_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>

#include <poll.h>
#include <unistd.h>

namespace stand::posix {

LineReader::Got LineReader::read_line(std::string& line, std::chrono::milliseconds within) {
    const auto deadline = std::chrono::steady_clock::now() + within;
    for (;;) {
        if (const auto nl = pending_.find('\n'); nl != std::string::npos) {
            line = pending_.substr(0, nl);
            pending_.erase(0, nl + 1);
            return Got::line;
        }
        if (fd_ < 0) return Got::end;
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return Got::timeout;
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1000)));
        if (ready < 0 && errno != EINTR) return Got::end;
        if (ready <= 0) continue;
        char buffer[65536];
        const ssize_t n = ::read(fd_, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return Got::end;
        pending_.append(buffer, static_cast<std::size_t>(n));
    }
}

}  // namespace stand::posix
