#include "scenario/proxy_load_metrics.hpp"

#include "detect/finding.hpp"

#include <cstdio>

namespace stand::scenario {
namespace {

std::string fixed(double v, const char* format = "%.2f") {
    char buf[48];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// Above this share of requests with their own backend connection, the proxy
// is not pooling (a pooled run stays near 0; pool off is 1.0).
constexpr double kNoReuseConnsPerRequest = 0.5;

}  // namespace

void add_proxy_load_metrics(const ProxyLoadInputs& in, boost::json::object& metrics, boost::json::array& findings) {
    auto put = [&](const std::string& key, double v) { metrics[in.name + "." + key] = v; };
    const double completed = static_cast<double>(in.completed);
    if (in.completed > 0) put("conns_per_req", static_cast<double>(in.connections) / completed);

    if (in.backend_before && in.backend_after && in.completed > 0) {
        const double conns = static_cast<double>(in.backend_after->accepted - in.backend_before->accepted);
        const double requests = static_cast<double>(in.backend_after->requests - in.backend_before->requests);
        put("backend_conns", conns);
        put("backend_conns_per_req", conns / completed);
        put("backend_requests_per_req", requests / completed);
        if (in.backend_cpu_s) put("backend_cpu_us_per_req", *in.backend_cpu_s * 1e6 / completed);
        if (conns / completed > kNoReuseConnsPerRequest && !in.pool_off_by_scenario)
            findings.push_back(detect::Finding{"no-backend-reuse", in.scope,
                                               "the proxy opened " + fixed(conns / completed) +
                                                   " backend connections per request (" + fixed(conns, "%.0f") +
                                                   " for " + fixed(completed, "%.0f") +
                                                   " requests): no connection reuse to the backend, so every "
                                                   "request pays a TCP connect and close on both sides"}
                                   .to_json());
    }

    if (in.tls_handshakes > 0) {
        const double handshakes = static_cast<double>(in.tls_handshakes);
        put("handshakes", handshakes);
        put("client_us_per_handshake", in.client_cpu_s * 1e6 / handshakes);
        if (in.box_cpu_s) {
            const double server = *in.box_cpu_s * 1e6 / handshakes;
            const double client = in.client_cpu_s * 1e6 / handshakes;
            put("server_us_per_handshake", server);
            if (client > server)
                findings.push_back(detect::Finding{"generator-bound-tls", in.scope,
                                                   "the generator spent " + fixed(client, "%.0f") +
                                                       " us of CPU per TLS handshake, the server " +
                                                       fixed(server, "%.0f") +
                                                       " us: the handshake rate measures the client, not the server"}
                                       .to_json());
        }
    }
}

}  // namespace stand::scenario
