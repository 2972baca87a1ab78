#include "scenario/step_metrics.hpp"

#include <boost/json.hpp>

namespace stand::scenario {
namespace {

std::vector<std::string_view> suffixes(const StepAction& action) {
    if (std::holds_alternative<WaitReadyStep>(action)) return {"seconds"};
    if (const auto* restart = std::get_if<RestartStep>(&action)) {
        if (restart->admin_api) return {"seconds", "command_seconds", "admin_api_seconds"};
        return {"seconds", "command_seconds"};
    }
    if (std::holds_alternative<IdleStep>(action))
        return {"cpu_pct", "mem_mean_mib", "mem_max_mib", "anon_mean_mib", "workset_mean_mib", "procs"};
    if (const auto* load = std::get_if<LoadStep>(&action)) {
        std::vector<std::string_view> out = {"rps",           "ok_rps",        "p50_ms",         "p90_ms",
                                             "p95_ms",        "p99_ms",        "ok_p50_ms",      "ok_p95_ms",
                                             "ok_p99_ms",     "error_pct",     "box_cpu_pct",    "box_cpu_us_per_req",
                                             "client_cpu_pct", "client_cpu_us_per_req", "mem_max_mib", "anon_mean_mib",
                                             "peak_since_start_mib", "throttled_ms",
                                             // through a proxy (scenario/proxy_load_metrics.hpp)
                                             "conns_per_req", "backend_conns", "backend_conns_per_req",
                                             "backend_requests_per_req", "backend_cpu_us_per_req", "handshakes",
                                             "server_us_per_handshake", "client_us_per_handshake"};
        if (load->rate) out.push_back("late_pct");
        if (load->churn_per_s > 0)
            for (std::string_view m : {"admin_add_p50_ms", "admin_add_p95_ms", "admin_add_max_ms", "admin_del_p50_ms",
                                       "admin_del_p95_ms", "admin_del_max_ms", "admin_call_p50_ms", "admin_call_p95_ms",
                                       "admin_call_max_ms", "admin_errors"})
                out.push_back(m);
        return out;
    }
    if (std::holds_alternative<WebsocketStep>(action))
        return {"ws_connected", "ws_failed", "ws_dropped", "ws_echoes_per_s", "ws_rtt_p50_ms", "ws_rtt_p99_ms",
                "client_cpu_us_per_echo", "box_cpu_pct", "box_cpu_us_per_echo", "backend_ws_sessions", "mem_max_mib"};
    if (std::holds_alternative<HoldIdleStep>(action))
        return {"idle_opened", "idle_failed", "idle_closed", "idle_held", "idle_open_s", "mem_max_mib",
                "box_cpu_pct"};
    if (std::holds_alternative<TunnelStep>(action))
        return {"gbit_s", "mbit_mean", "seconds_below", "probe_p50_ms", "probe_p95_ms", "probe_p99_ms",
                "probes_failed", "streams_dropped", "reconnects", "reconnect_gap_max_ms", "connection_losses",
                "handshake_ms", "client_cpu_pct", "box_cpu_pct", "mbit_per_cpu_s", "anon_mean_mib",
                "mem_max_mib", "processes_replaced"};
    if (std::holds_alternative<ManyClientsStep>(action))
        return {"connected", "handshake_failures", "handshake_p50_ms", "handshake_p95_ms", "requests_ok",
                "request_failures", "request_p95_ms", "disconnects", "box_cpu_pct", "anon_mean_mib",
                "client_cpu_pct", "links_s"};
    if (std::holds_alternative<ProbeStep>(action)) return {"*"};
    if (std::holds_alternative<BootstrapStep>(action)) return {"seconds"};
    if (std::holds_alternative<CreateUsersStep>(action))
        return {"seconds", "users", "call_p50_ms", "call_p99_ms", "call_max_ms", "waits_429", "wait_429_s",
                "seconds_excl_429"};
    if (std::holds_alternative<DiskUsageStep>(action)) return {"data_mib", "artifacts_mib", "containers"};
    return {};
}

}  // namespace

std::vector<std::string> metrics_produced(const Step& step) {
    std::vector<std::string> out;
    for (std::string_view suffix : suffixes(step.action)) out.push_back(step.name + "." + std::string(suffix));
    if (const auto* tunnel = std::get_if<TunnelStep>(&step.action); tunnel && tunnel->during)
        for (auto& m : metrics_produced(*tunnel->during)) out.push_back(std::move(m));
    return out;
}

bool produces_metric(const Step& step, std::string_view metric) {
    if (const auto* tunnel = std::get_if<TunnelStep>(&step.action);
        tunnel && tunnel->during && produces_metric(*tunnel->during, metric))
        return true;
    if (metric.size() <= step.name.size() + 1 || !metric.starts_with(step.name) || metric[step.name.size()] != '.')
        return false;
    const std::string_view suffix = metric.substr(step.name.size() + 1);
    for (std::string_view s : suffixes(step.action))
        if (s == "*" || s == suffix) return true;
    return false;
}

bool phases_produce_metric(const std::vector<Phase>& phases, std::string_view metric) {
    for (const Phase& phase : phases)
        for (const Step& step : phase.steps)
            if (produces_metric(step, metric)) return true;
    return false;
}

std::string unknown_metric_hint(std::string_view metric, const std::vector<Phase>& phases) {
    auto join = [](const std::vector<std::string>& items) {
        std::string out;
        for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
        return out;
    };
    const std::string_view step_name = metric.substr(0, metric.find('.'));
    std::vector<std::string> with_metrics;
    for (const Phase& phase : phases)
        for (const Step& step : phase.steps) {
            const auto metrics = metrics_produced(step);
            if (step.name == step_name)
                return metrics.empty() ? "step " + step.name + " produces no metrics"
                                       : "step " + step.name + " produces " + join(metrics);
            if (!metrics.empty()) with_metrics.push_back(step.name);
        }
    if (with_metrics.empty()) return "no step produces metrics";
    return "no step is named " + boost::json::serialize(boost::json::string_view(step_name.data(), step_name.size())) +
           "; steps with metrics: " + join(with_metrics);
}

}  // namespace stand::scenario
