// Why a request got no usable response: a coarse kind (the keys of
// stand.load/1 "errors") and, for every error, a reason that names what
// happened ("chunk size too large", "headers incomplete at the timeout").
// Reasons are static text, so counting one allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stand::load {

enum class ErrorKind : std::uint8_t {
    connect_refused,  // nobody listens (ECONNREFUSED)
    connect,          // any other connect failure (unreachable, address in use, ...)
    bind,             // the --bind-prefix source address could not be bound
    reset,            // the peer reset the connection (ECONNRESET, EPIPE)
    closed,           // the peer closed the connection before the response was complete
    timeout,          // no complete response within the timeout
    tls,              // handshake or certificate failure, or a TLS record error
    parse,            // the response is not valid HTTP/1.x (HTTP/3: no final :status in 200..599)
    other,
    // Valid HTTP/1.x that cannot count as the answer to the request: a 101
    // (the connection leaves HTTP), too many interim 1xx answers, bytes no
    // request asked for.
    protocol,
};
inline constexpr std::size_t kErrorKinds = 10;
const char* error_kind_name(ErrorKind kind) noexcept;

// Where an HTTP/1.1 request was when its connection failed.
enum class Phase : std::uint8_t {
    connect,  // TCP connect (and TLS handshake)
    wait,     // request sent, no byte of the answer yet
    headers,  // in the status line or the headers (interim answers included)
    body,     // in the body (chunk framing and trailers included)
};
// The reason of a reset, close or timeout in `phase`; for other kinds the
// kind's one generic reason.
const char* phase_reason(ErrorKind kind, Phase phase) noexcept;
// The reason when a caller has nothing more precise.
inline const char* default_reason(ErrorKind kind) noexcept { return phase_reason(kind, Phase::wait); }

}  // namespace stand::load
