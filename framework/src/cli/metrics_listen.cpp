#include "cli/metrics_listen.hpp"

#include "backend/backend_error.hpp"
#include "backend/bind_listener.hpp"
#include "backend/host_port.hpp"
#include "host/http/target_resolver.hpp"

#include <iostream>
#include <stdexcept>

namespace stand::cli {

MetricsListen::MetricsListen(const Args& args) {
    const auto given = args.value("metrics-listen");
    if (!given) {
        if (args.flag("allow-remote-metrics")) throw UsageError("--allow-remote-metrics goes with --metrics-listen");
        return;
    }
    text_ = "--metrics-listen " + *given;
    try {
        endpoint_ = backend::parse_host_port(*given);
    } catch (const std::invalid_argument& e) {
        throw UsageError(text_ + ": " + e.what());
    }
    if (!args.flag("allow-remote-metrics") && !host::http::is_loopback(endpoint_->address()))
        throw UsageError(text_ + ": not a loopback address; the metrics listen on loopback only unless "
                                 "--allow-remote-metrics");
}

std::string exposure_notice(const boost::asio::ip::address& address) {
    if (host::http::is_loopback(address)) return "";
    if (address.is_unspecified())
        return "listening on every interface (" + address.to_string() + "): reachable from other machines";
    return "listening on " + address.to_string() + ", not loopback: reachable from other machines";
}

void MetricsListen::refuse(const std::exception& why) const { throw UsageError(text_ + ": " + why.what()); }

void MetricsListen::check() const {
    if (!endpoint_) return;
    boost::asio::io_context context;
    try {
        backend::bind_listener(context, *endpoint_, "metrics");
    } catch (const backend::BackendError& e) {
        refuse(e);
    }
}

live::LiveFigures* MetricsListen::open(const std::string& scenario) {
    if (!endpoint_) return nullptr;
    figures_ = std::make_unique<live::LiveFigures>(scenario);
    try {
        server_ = std::make_unique<live::MetricsServer>(*endpoint_, *figures_);
    } catch (const backend::BackendError& e) {
        refuse(e);
    }
    std::cerr << "stand: metrics: http://" << backend::format_host_port(server_->endpoint()) << "/metrics\n";
    if (const auto notice = exposure_notice(server_->endpoint().address()); !notice.empty())
        std::cerr << "stand: metrics: " << notice << "\n";
    return figures_.get();
}

}  // namespace stand::cli
