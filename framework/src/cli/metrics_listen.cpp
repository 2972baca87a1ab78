#include "cli/metrics_listen.hpp"

#include "backend/backend_error.hpp"
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

live::LiveFigures* MetricsListen::open(const std::string& scenario) {
    if (!endpoint_) return nullptr;
    figures_ = std::make_unique<live::LiveFigures>(scenario);
    try {
        server_ = std::make_unique<live::MetricsServer>(*endpoint_, *figures_);
    } catch (const backend::BackendError& e) {
        throw UsageError(text_ + ": " + e.what());
    }
    std::cerr << "stand: metrics: http://" << backend::format_host_port(server_->endpoint()) << "/metrics\n";
    return figures_.get();
}

}  // namespace stand::cli
