// One connection on the backend's data listener: HTTP/1.1 requests answered
// in turn until the client or the keep-alive rules end it, or a websocket
// echo after an upgrade at the websocket path.
#pragma once

#include "backend/backend_counters.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <string>

namespace stand::backend {

// What every data connection shares; owned by the server.
struct DataPlane {
    std::string body;  // the fixed response body
    std::string ws_path;
    BackendCounters& counters;
};

boost::asio::awaitable<void> serve_data_connection(boost::asio::ip::tcp::socket socket, const DataPlane& plane);

}  // namespace stand::backend
