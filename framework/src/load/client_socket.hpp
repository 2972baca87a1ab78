// The TCP socket an HTTP/1.1 load connection opens for a link, the same for
// both engines: close-on-exec, TCP_NODELAY, and bound to the link's source
// address (--bind-prefix) with the port left to connect().
#pragma once

#include "load/error_kind.hpp"
#include "load/load_plan.hpp"

namespace stand::load {

struct SocketFailure {
    ErrorKind kind;
    const char* reason;  // static text
};

// The socket's descriptor (the caller owns it), or -1 with `failure` set.
int open_client_socket(const Plan& plan, const PreparedLink& link, SocketFailure& failure) noexcept;

}  // namespace stand::load
