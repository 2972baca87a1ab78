// Whether a TCP connect to host:port succeeds, under the HTTP client's target
// rules (loopback and localhost only unless remote targets are allowed): the
// "tcp" readiness check and compat's look at a share link's endpoint.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace stand::host::http {

// "" when a connection was accepted (and closed at once), else why not:
// "connection refused", "no answer in 2000 ms", "refusing non-local target ...".
std::string tcp_connect_problem(const std::string& host, std::uint16_t port, bool allow_remote,
                                std::chrono::milliseconds timeout);

}  // namespace stand::host::http
