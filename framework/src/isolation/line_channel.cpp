#include "isolation/line_channel.hpp"

#include <cerrno>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stand::isolation {

LineChannel::~LineChannel() {
    if (fd_ >= 0) ::close(fd_);
}

bool LineChannel::send(const boost::json::object& message) {
    std::string line = boost::json::serialize(message);
    line += '\n';
    std::size_t done = 0;
    while (done < line.size()) {
        ssize_t n = ::send(fd_, line.data() + done, line.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

LineChannel::Status LineChannel::receive(boost::json::object& message, std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        if (auto eol = buffer_.find('\n'); eol != std::string::npos) {
            std::string line = buffer_.substr(0, eol);
            buffer_.erase(0, eol + 1);
            boost::system::error_code ec;
            auto value = boost::json::parse(line, ec);
            if (ec || !value.is_object()) {
                message = {{"type", "garbage"}, {"line", line.substr(0, 200)}};
                return Status::kMessage;
            }
            message = std::move(value.as_object());
            return Status::kMessage;
        }
        int wait_ms = -1;
        if (timeout.count() >= 0) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return Status::kTimeout;
            wait_ms = static_cast<int>(left.count());
        }
        pollfd pfd{fd_, POLLIN, 0};
        int ready = ::poll(&pfd, 1, wait_ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) return Status::kTimeout;
        char chunk[8192];
        ssize_t n = ::read(fd_, chunk, sizeof(chunk));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return Status::kClosed;
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

}  // namespace stand::isolation
