// The backend that reverse proxies are measured in front of: an HTTP/1.1
// server that answers GET, HEAD and POST with 200 and a fixed text/plain
// body, a websocket echo at one path, and counters of what it served,
// readable on a separate control listener (control_session.hpp).
//
// `threads` event loops, one io_context each; the data listener accepts on
// the first and hands connections to the loops in turn, so a connection
// stays on one thread and needs no locking.
#pragma once

#include "backend/backend_counters.hpp"
#include "backend/backend_error.hpp"
#include "backend/backend_options.hpp"
#include "backend/data_session.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace stand::backend {

class BackendServer {
public:
    // Opens both listeners and starts serving; throws BackendError when a
    // listener cannot be opened or the options make no sense.
    explicit BackendServer(BackendOptions options);
    ~BackendServer();
    BackendServer(const BackendServer&) = delete;
    BackendServer& operator=(const BackendServer&) = delete;

    // Stops every event loop; open connections stop being served and are
    // closed when the server is destroyed. Idempotent.
    void stop();

    const BackendOptions& options() const noexcept { return options_; }
    // The listeners' actual addresses (port 0 in the options is resolved here).
    boost::asio::ip::tcp::endpoint listen_endpoint() const { return listen_endpoint_; }
    boost::asio::ip::tcp::endpoint control_endpoint() const { return control_endpoint_; }
    BackendStats stats() const noexcept { return counters_.snapshot(); }

private:
    boost::asio::awaitable<void> accept_data();
    boost::asio::awaitable<void> accept_control();

    BackendOptions options_;
    BackendCounters counters_;
    DataPlane plane_;
    std::vector<std::unique_ptr<boost::asio::io_context>> contexts_;
    std::vector<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> keep_running_;
    std::optional<boost::asio::ip::tcp::acceptor> data_acceptor_;
    std::optional<boost::asio::ip::tcp::acceptor> control_acceptor_;
    boost::asio::ip::tcp::endpoint listen_endpoint_;
    boost::asio::ip::tcp::endpoint control_endpoint_;
    std::vector<std::thread> threads_;
};

}  // namespace stand::backend
