// The live metrics listener of `stand run --metrics-listen`: GET /metrics
// answers the live figures in the OpenMetrics text format (or Prometheus's
// text format 0.0.4 when the client does not ask for OpenMetrics:
// metric_text.hpp), anything else 404. One thread of its own, with the stop
// signals blocked so that they reach the run; destroying it stops serving at
// once, whatever clients are connected.
//
// It takes little from the run it watches (listener_limits.hpp): at most
// connection_cap_here() connections at once (one more is closed when
// accepted), a request whole within kRequestTimeout or the connection goes,
// and accepts and requests paced to kOperationsPerSecond. What scrapers
// asked of it is counted into the figures' ListenerLoad.
#pragma once

#include "live/listener_limits.hpp"
#include "live/live_figures.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstddef>
#include <thread>

namespace stand::live {

class MetricsServer {
public:
    // Listens on `endpoint` now (port 0: a free port) and serves `figures`,
    // which must outlive it. Throws backend::BackendError naming the
    // address and the system's reason when it cannot listen.
    MetricsServer(const boost::asio::ip::tcp::endpoint& endpoint, LiveFigures& figures);
    ~MetricsServer();
    MetricsServer(const MetricsServer&) = delete;
    MetricsServer& operator=(const MetricsServer&) = delete;

    boost::asio::ip::tcp::endpoint endpoint() const { return endpoint_; }

private:
    boost::asio::awaitable<void> accept();
    boost::asio::awaitable<void> serve(boost::asio::ip::tcp::socket socket);
    boost::asio::awaitable<void> wait_turn();

    LiveFigures& figures_;
    const std::size_t cap_;
    std::size_t open_ = 0;  // connections served now (the server's thread only)
    Pace pace_{kOperationsPerSecond, kOperationBurst};
    boost::asio::io_context context_{1};
    boost::asio::ip::tcp::acceptor acceptor_;
    boost::asio::ip::tcp::endpoint endpoint_;
    std::thread thread_;
};

}  // namespace stand::live
