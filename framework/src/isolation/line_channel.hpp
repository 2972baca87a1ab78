// Newline-delimited JSON messages over a socket, with deadlines: the wire of
// the host <-> plugin worker protocol.
#pragma once

#include <boost/json.hpp>

#include <chrono>
#include <optional>
#include <string>

namespace stand::isolation {

class LineChannel {
public:
    explicit LineChannel(int fd) : fd_(fd) {}
    ~LineChannel();
    LineChannel(const LineChannel&) = delete;
    LineChannel& operator=(const LineChannel&) = delete;

    // Returns false when the peer is gone.
    bool send(const boost::json::object& message);

    enum class Status { kMessage, kTimeout, kClosed };
    // Waits up to `timeout` (negative: forever) for one message.
    Status receive(boost::json::object& message, std::chrono::milliseconds timeout);

    int fd() const noexcept { return fd_; }

private:
    int fd_;
    std::string buffer_;
};

}  // namespace stand::isolation
