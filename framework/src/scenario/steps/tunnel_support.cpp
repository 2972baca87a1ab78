#include "scenario/steps/tunnel_support.hpp"

#include "target/subscription_links.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <string>
#include <vector>
#include <stdexcept>

namespace stand::scenario {

namespace json = boost::json;

hysteria::HysteriaLink hysteria_link_of(host::HttpService& http, const json::object& subscription,
                                        const std::string& who) {
    const std::string url = subscription.contains("url") ? std::string(subscription.at("url").as_string()) : "";
    const auto session = http.open_session({{"cookies", false}, {"timeout_ms", 10000}});
    json::object request{{"method", subscription.contains("method") ? subscription.at("method") : json::value("GET")},
                         {"url", url},
                         {"label", "tunnel link of " + who}};
    if (const auto* h = subscription.if_contains("headers")) request["headers"] = *h;
    json::object reply;
    try {
        reply = http.request(session, request);
    } catch (const std::exception& e) {
        http.close_session(session);
        throw std::runtime_error("subscription of " + who + " (" + url + "): " + e.what());
    }
    http.close_session(session);
    const auto status = reply.at("status").to_number<std::int64_t>();
    if (status != 200)
        throw std::runtime_error("subscription of " + who + " (" + url + ") answered " + std::to_string(status));
    const auto* body = reply.if_contains("body");
    const std::string text = body != nullptr && body->is_string() ? std::string(body->as_string()) : "";
    const auto links = target::parse_subscription_body(text);
    for (const auto& line : links.links) {
        if (!line.starts_with("hysteria2://") && !line.starts_with("hy2://")) continue;
        try {
            return hysteria::parse_hysteria_link(line);
        } catch (const hysteria::LinkError& e) {
            throw std::runtime_error("subscription of " + who + " (" + url + "): " + e.what());
        }
    }
    throw NoHysteriaLink("subscription of " + who + " (" + url + ") has no hysteria2:// link (" +
                             std::to_string(links.links.size()) + " link(s))");
}

void put_tunnel_metrics(const PutMetric& put, const std::string& name, const tunnel::TunnelResult& r) {
    put(name + ".gbit_s", r.mbit_mean / 1000.0);
    put(name + ".mbit_mean", r.mbit_mean);
    put(name + ".seconds_below", static_cast<double>(r.seconds_below));
    if (r.probe_latency.count() > 0) {
        put(name + ".probe_p50_ms", static_cast<double>(r.probe_latency.value_at_percentile(50)) / 1000.0);
        put(name + ".probe_p95_ms", static_cast<double>(r.probe_latency.value_at_percentile(95)) / 1000.0);
        put(name + ".probe_p99_ms", static_cast<double>(r.probe_latency.value_at_percentile(99)) / 1000.0);
    }
    put(name + ".probes_failed", static_cast<double>(r.probes_failed));
    put(name + ".streams_dropped", static_cast<double>(r.streams_dropped));
    put(name + ".reconnects", static_cast<double>(r.reconnects));
    put(name + ".connection_losses", static_cast<double>(r.connection_losses));
    if (!r.reconnect_gaps_ms.empty())
        put(name + ".reconnect_gap_max_ms", *std::max_element(r.reconnect_gaps_ms.begin(), r.reconnect_gaps_ms.end()));
    put(name + ".handshake_ms", r.handshake_ms);
    if (r.window_s > 0) put(name + ".client_cpu_pct", r.cpu_s / r.window_s * 100.0);
}

void put_many_clients_metrics(const PutMetric& put, const std::string& name, const tunnel::ManyClientsResult& r) {
    put(name + ".connected", static_cast<double>(r.connected));
    put(name + ".handshake_failures", static_cast<double>(r.handshake_failures));
    if (r.handshake_us.count() > 0) {
        put(name + ".handshake_p50_ms", static_cast<double>(r.handshake_us.value_at_percentile(50)) / 1000.0);
        put(name + ".handshake_p95_ms", static_cast<double>(r.handshake_us.value_at_percentile(95)) / 1000.0);
    }
    put(name + ".requests_ok", static_cast<double>(r.requests_ok));
    put(name + ".request_failures", static_cast<double>(r.requests_failed));
    if (r.request_us.count() > 0)
        put(name + ".request_p95_ms", static_cast<double>(r.request_us.value_at_percentile(95)) / 1000.0);
    put(name + ".disconnects", static_cast<double>(r.disconnects));
    if (r.elapsed_s > 0) put(name + ".client_cpu_pct", r.cpu_s / r.elapsed_s * 100.0);
}

std::string many_clients_failures(const tunnel::ManyClientsResult& r) {
    std::vector<std::string> parts;
    const auto n = [](std::uint64_t v) { return std::to_string(v); };
    if (r.handshake_failures > 0) parts.push_back(n(r.handshake_failures) + " of " + n(r.clients) + " clients failed to connect");
    if (r.requests_failed > 0)
        parts.push_back(n(r.requests_failed) + " of " + n(r.requests_ok + r.requests_failed) + " requests failed" +
                        (r.handshake_failures == 0 ? " (" + n(r.connected) + " of " + n(r.clients) + " clients connected)" : ""));
    if (r.disconnects > 0)
        parts.push_back(n(r.disconnects) + (r.disconnects == 1 ? " connection" : " connections") + " lost after authenticating");
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
}

}  // namespace stand::scenario
