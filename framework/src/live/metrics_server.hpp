// The live metrics listener of `stand run --metrics-listen`: GET /metrics
// answers the live figures in the OpenMetrics text format (or Prometheus's
// text format 0.0.4 when the client does not ask for OpenMetrics:
// metric_text.hpp), anything else 404. One thread of its own, with the stop
// signals blocked so that they reach the run; destroying it stops serving at
// once, whatever clients are connected.
#pragma once

#include "live/live_figures.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <thread>

namespace stand::live {

class MetricsServer {
public:
    // Listens on `endpoint` now (port 0: a free port) and serves `figures`,
    // which must outlive it. Throws backend::BackendError naming the
    // address and the system's reason when it cannot listen.
    MetricsServer(const boost::asio::ip::tcp::endpoint& endpoint, const LiveFigures& figures);
    ~MetricsServer();
    MetricsServer(const MetricsServer&) = delete;
    MetricsServer& operator=(const MetricsServer&) = delete;

    boost::asio::ip::tcp::endpoint endpoint() const { return endpoint_; }

private:
    boost::asio::awaitable<void> accept();

    const LiveFigures& figures_;
    boost::asio::io_context context_{1};
    boost::asio::ip::tcp::acceptor acceptor_;
    boost::asio::ip::tcp::endpoint endpoint_;
    std::thread thread_;
};

}  // namespace stand::live
