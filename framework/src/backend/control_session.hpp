// One connection on the backend's control listener: `GET /stats` answers
// the counters as a JSON object, anything else 404. Control connections are
// not counted, so reading the stats never changes them.
#pragma once

#include "backend/backend_counters.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace stand::backend {

boost::asio::awaitable<void> serve_control_connection(boost::asio::ip::tcp::socket socket,
                                                      const BackendCounters& counters);

}  // namespace stand::backend
