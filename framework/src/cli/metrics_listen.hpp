// `stand run --metrics-listen HOST:PORT [--allow-remote-metrics]`: the live
// figures served to Prometheus while the run runs (live/metrics_server.hpp).
#pragma once

#include "cli/args.hpp"
#include "live/live_figures.hpp"
#include "live/metrics_server.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <exception>
#include <memory>
#include <optional>
#include <string>

namespace stand::cli {

// What a listener on `address` exposes, for stderr: "" on loopback; on
// 0.0.0.0 or ::, that it listens on every interface and so is reachable
// from other machines; on another address, that it is reachable from them.
std::string exposure_notice(const boost::asio::ip::address& address);

class MetricsListen {
public:
    // Reads the options; throws UsageError naming --metrics-listen for an
    // address that is not HOST:PORT, or not loopback without
    // --allow-remote-metrics.
    explicit MetricsListen(const Args& args);

    bool wanted() const { return endpoint_.has_value(); }
    const std::string& option_text() const { return text_; }

    // --check: listens and lets go at once; UsageError as open() when it cannot.
    void check() const;

    // Listens (UsageError naming the option and the reason when it cannot),
    // says where on stderr ("stand: metrics: http://127.0.0.1:40123/metrics",
    // and exposure_notice() when it is not loopback) and returns the figures
    // the run keeps up to date; null when not wanted. Serving ends when this
    // object goes.
    live::LiveFigures* open(const std::string& scenario);

private:
    [[noreturn]] void refuse(const std::exception& why) const;

    std::optional<boost::asio::ip::tcp::endpoint> endpoint_;
    std::string text_;  // "--metrics-listen HOST:PORT", as given
    std::unique_ptr<live::LiveFigures> figures_;
    std::unique_ptr<live::MetricsServer> server_;  // after figures_: goes first
};

}  // namespace stand::cli
