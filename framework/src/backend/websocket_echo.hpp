// A websocket session of the backend: accepts the upgrade and sends every
// message back as it came (text as text, binary as binary) until the client
// closes.
#pragma once

#include "backend/backend_counters.hpp"
#include "backend/http_reply.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>

namespace stand::backend {

// `upgrade` is the request read from `stream`. Nothing can follow it in the
// stream yet: a client waits for the handshake's answer (RFC 6455, 4.1).
boost::asio::awaitable<void> echo_websocket(boost::beast::tcp_stream stream, Request upgrade,
                                            BackendCounters& counters);

}  // namespace stand::backend
