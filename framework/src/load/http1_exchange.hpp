// What both HTTP/1.1 engines' connections (load_connection: Asio,
// uring_connection: io_uring) keep of the exchange under way, and how one
// ends: its response or its error recorded in the thread's stats, then the
// dispatcher told the connection is free. All on the thread's own loop.
#pragma once

#include "load/error_kind.hpp"
#include "load/load_dispatch.hpp"
#include "load/response_parser.hpp"

#include <cstdint>

namespace stand::load {

class Http1Exchange : public LoadConnection {
public:
    bool busy() const noexcept override { return busy_; }
    std::int64_t deadline() const noexcept override { return deadline_; }

protected:
    explicit Http1Exchange(Dispatcher& dispatcher) : dispatcher_(dispatcher) {}

    // Where the exchange is: connecting, waiting for the first byte, or the parser's phase.
    Phase phase() const noexcept {
        if (connecting_) return Phase::connect;
        return got_bytes_ ? parser_.phase() : Phase::wait;
    }
    // The response lets the connection stay open and the load keeps connections.
    bool keeps_alive() const noexcept { return parser_.keep_alive() && dispatcher_.shared().spec->keepalive; }
    // The parser holds a whole response: recorded; the connection is free.
    void end_with_response(std::int64_t now);
    // The request failed: recorded as `kind` with `reason`; the connection is free.
    void end_with_error(ErrorKind kind, const char* reason, std::int64_t now);

    ResponseParser parser_;
    std::int64_t intended_ = 0;  // when the schedule wanted the request sent
    std::int64_t started_ = 0;   // when it was
    std::int64_t deadline_ = INT64_MAX;
    bool connecting_ = false;    // connect (and TLS handshake) under way
    bool busy_ = false;
    bool got_bytes_ = false;     // some of the response arrived

private:
    void free_at(std::int64_t now);

    Dispatcher& dispatcher_;
};

}  // namespace stand::load
