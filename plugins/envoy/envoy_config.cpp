#include "envoy_config.hpp"

#include <stand/kits/proxy/pretty_json.hpp>

#include <stand/cpp/error.hpp>

#include <arpa/inet.h>

#include <algorithm>

namespace stand_envoy {
namespace {

namespace json = boost::json;
using stand_proxy_kit::ProxyKnobs;
using stand_proxy_kit::Upstream;

constexpr const char* kTypePrefix = "type.googleapis.com/";

bool is_ip_literal(const std::string& host) {
    unsigned char buf[16];
    return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

json::object typed(const char* message_type, json::object fields = {}) {
    json::object o{{"@type", std::string(kTypePrefix) + message_type}};
    for (auto& kv : fields) o[kv.key()] = std::move(kv.value());
    return o;
}

json::object socket_address(const std::string& host, std::uint16_t port) {
    return {{"socket_address", {{"address", host}, {"port_value", port}}}};
}

json::object route_to_backend(const EnvoySettings& s) {
    const auto& k = s.knobs;
    json::object route{{"match", {{"prefix", "/"}}}};
    if (k.upstreams.empty()) {
        route["direct_response"] = {{"status", 200}, {"body", {{"inline_string", s.body}}}};
        return route;
    }
    json::object action{{"cluster", kClusterName}};
    if (k.websocket) action["idle_timeout"] = kWebsocketIdleTimeout;
    route["route"] = std::move(action);
    return route;
}

// https://www.envoyproxy.io/docs/envoy/latest/api-v3/extensions/filters/network/http_connection_manager/v3/http_connection_manager.proto
json::object http_connection_manager(const EnvoySettings& s) {
    json::object virtual_host{
        {"name", "stand"}, {"domains", json::array{"*"}}, {"routes", json::array{route_to_backend(s)}}};
    json::object hcm{
        {"stat_prefix", "stand"},
        {"codec_type", "AUTO"},
        {"route_config", {{"name", "stand_route"}, {"virtual_hosts", json::array{std::move(virtual_host)}}}},
        {"http_filters", json::array{{{"name", "envoy.filters.http.router"},
                                      {"typed_config", typed("envoy.extensions.filters.http.router.v3.Router")}}}}};
    // Envoy refuses Upgrade requests unless the upgrade type is listed.
    if (s.knobs.websocket) hcm["upgrade_configs"] = json::array{{{"upgrade_type", "websocket"}}};
    return typed("envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager", std::move(hcm));
}

// https://www.envoyproxy.io/docs/envoy/latest/api-v3/extensions/transport_sockets/tls/v3/tls.proto
json::object downstream_tls(const ProxyKnobs& k) {
    json::object certificate{{"certificate_chain", {{"filename", k.cert_file}}},
                             {"private_key", {{"filename", k.key_file}}}};
    json::object context{{"tls_certificates", json::array{std::move(certificate)}},
                         {"alpn_protocols", json::array{"h2", "http/1.1"}}};
    return {{"name", "envoy.transport_sockets.tls"},
            {"typed_config", typed("envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext",
                                   {{"common_tls_context", std::move(context)}})}};
}

json::object listener(const EnvoySettings& s) {
    json::object chain{{"filters", json::array{{{"name", "envoy.filters.network.http_connection_manager"},
                                                {"typed_config", http_connection_manager(s)}}}}};
    if (s.knobs.tls) chain["transport_socket"] = downstream_tls(s.knobs);
    return {{"name", kListenerName},
            {"address", socket_address(s.knobs.listen_host, s.knobs.listen_port)},
            {"filter_chains", json::array{std::move(chain)}}};
}

// https://www.envoyproxy.io/docs/envoy/latest/api-v3/config/cluster/v3/cluster.proto
json::object cluster(const EnvoySettings& s) {
    const auto& ups = s.knobs.upstreams;
    json::array endpoints;
    for (const auto& u : ups)
        endpoints.push_back(json::object{{"endpoint", {{"address", socket_address(u.host, u.port)}}}});
    // STATIC takes IP addresses only; a host name needs DNS resolution.
    const bool all_ips = std::all_of(ups.begin(), ups.end(), [](const Upstream& u) { return is_ip_literal(u.host); });
    json::object c{{"name", kClusterName},
                   {"type", all_ips ? "STATIC" : "STRICT_DNS"},
                   {"connect_timeout", "5s"},
                   {"lb_policy", "ROUND_ROBIN"},
                   {"load_assignment", {{"cluster_name", kClusterName},
                                        {"endpoints", json::array{{{"lb_endpoints", std::move(endpoints)}}}}}}};
    if (!upstream_pool_on(s)) {
        // One request per upstream connection: Envoy closes it after the
        // response, so every request opens a new one.
        // https://www.envoyproxy.io/docs/envoy/latest/api-v3/extensions/upstreams/http/v3/http_protocol_options.proto
        // (upstream_protocol_options is a required oneof: plain HTTP/1.1.)
        c["typed_extension_protocol_options"] = {
            {kHttpProtocolOptions,
             typed(kHttpProtocolOptions, {{"common_http_protocol_options", {{"max_requests_per_connection", 1}}},
                                          {"explicit_http_config", {{"http_protocol_options", json::object{}}}}})}};
    }
    return c;
}

// https://www.envoyproxy.io/docs/envoy/latest/configuration/operations/overload_manager/overload_manager#limiting-active-connections
json::object connection_limit(std::int64_t max_connections) {
    constexpr const char* kConfigType =
        "envoy.extensions.resource_monitors.downstream_connections.v3.DownstreamConnectionsConfig";
    json::object monitor{
        {"name", kConnectionMonitor},
        {"typed_config", typed(kConfigType, {{"max_active_downstream_connections", max_connections}})}};
    return {{"resource_monitors", json::array{std::move(monitor)}}};
}

}  // namespace

bool upstream_pool_on(const EnvoySettings& s) { return s.knobs.upstream_keepalive.value_or(true); }

void check_envoy_knobs(const ProxyKnobs& k) {
    if (!is_ip_literal(k.listen_host))
        throw stand::cpp::ConfigError("knobs.listen.host: Envoy listens on IP addresses only, not '" + k.listen_host +
                                      "'");
}

json::object envoy_bootstrap(const EnvoySettings& s) {
    json::object resources{{"listeners", json::array{listener(s)}}};
    if (!s.knobs.upstreams.empty()) resources["clusters"] = json::array{cluster(s)};
    // No "admin": Envoy then starts no admin server at all.
    json::object bootstrap{{"static_resources", std::move(resources)}};
    if (s.knobs.max_connections) bootstrap["overload_manager"] = connection_limit(*s.knobs.max_connections);
    return bootstrap;
}

std::string render_envoy_config(const EnvoySettings& s) { return stand_proxy_kit::pretty_json(envoy_bootstrap(s)); }

}  // namespace stand_envoy
