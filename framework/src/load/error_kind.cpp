#include "load/error_kind.hpp"

namespace stand::load {

const char* error_kind_name(ErrorKind kind) noexcept {
    switch (kind) {
    case ErrorKind::connect_refused: return "connect_refused";
    case ErrorKind::connect: return "connect";
    case ErrorKind::bind: return "bind";
    case ErrorKind::reset: return "reset";
    case ErrorKind::closed: return "closed";
    case ErrorKind::timeout: return "timeout";
    case ErrorKind::tls: return "tls";
    case ErrorKind::parse: return "parse";
    case ErrorKind::other: return "other";
    case ErrorKind::protocol: return "protocol";
    }
    return "other";
}

const char* phase_reason(ErrorKind kind, Phase phase) noexcept {
    switch (kind) {
    case ErrorKind::reset:
        if (phase == Phase::headers) return "reset in the headers";
        if (phase == Phase::body) return "reset in the body";
        return "reset before any byte of the response";
    case ErrorKind::closed:
        if (phase == Phase::headers) return "closed in the headers";
        if (phase == Phase::body) return "closed in the body";
        return "closed before any byte of the response";
    case ErrorKind::timeout:
        if (phase == Phase::connect) return "no connection within the timeout";
        if (phase == Phase::headers) return "headers incomplete at the timeout";
        if (phase == Phase::body) return "body incomplete at the timeout";
        return "no byte of the response within the timeout";
    case ErrorKind::connect_refused: return "connection refused";
    case ErrorKind::connect: return "connect failed";
    case ErrorKind::bind: return "source address not bindable";
    case ErrorKind::tls: return phase == Phase::connect ? "TLS handshake failed" : "TLS record error";
    case ErrorKind::parse: return "not HTTP/1.x";
    case ErrorKind::protocol: return "not an answer to the request";
    case ErrorKind::other: return "socket error";
    }
    return "socket error";
}

}  // namespace stand::load
