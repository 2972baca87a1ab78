#include "traefik_config.hpp"

#include <stand/kits/proxy/pretty_json.hpp>

#include <stand/cpp/error.hpp>

namespace stand_traefik {
namespace {

namespace json = boost::json;

std::string address(const std::string& host, std::uint16_t port) {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace

bool upstream_pool_on(const TraefikSettings& s) { return s.knobs.upstream_keepalive.value_or(true); }

void check_traefik_knobs(const stand_proxy_kit::ProxyKnobs& k) {
    if (k.upstreams.empty())
        throw stand::cpp::Error(STAND_E_UNSUPPORTED,
                                "traefik: origin mode (no knobs.upstreams) is not supported: Traefik has no handler "
                                "that answers with a fixed body; give knobs.upstreams");
    if (k.max_connections)
        throw stand::cpp::Error(STAND_E_UNSUPPORTED,
                                "traefik: knobs.max_connections is not supported: Traefik has no limit on client "
                                "connections per entry point (inFlightReq limits requests, inFlightConn only TCP "
                                "routers); set it to null");
}

// https://doc.traefik.io/traefik/reference/install-configuration/configuration-options/
json::object traefik_static_config(const TraefikSettings& s, const std::string& dynamic_file) {
    const auto& k = s.knobs;
    json::object cfg{
        // Both phone home unless told not to (checkNewVersion defaults to true).
        {"global", {{"checkNewVersion", false}, {"sendAnonymousUsage", false}}},
        {"log", {{"level", "ERROR"}}},
        {"entryPoints", {{kEntryPoint, {{"address", address(k.listen_host, k.listen_port)}}}}},
        {"providers", {{"file", {{"filename", dynamic_file}, {"watch", false}}}}}};
    // The default serversTransport (default@internal) is the one every
    // service without its own uses.
    if (k.upstream_keepalive)
        cfg["serversTransport"] = {{"maxIdleConnsPerHost", *k.upstream_keepalive ? stand_proxy_kit::kPoolIdlePerUpstream
                                                                                 : kNoConnectionReuse}};
    return cfg;
}

// https://doc.traefik.io/traefik/reference/routing-configuration/http/routing/router/
json::object traefik_dynamic_config(const TraefikSettings& s) {
    const auto& k = s.knobs;
    json::object router{{"entryPoints", json::array{kEntryPoint}}, {"rule", "PathPrefix(`/`)"}, {"service", kService}};
    if (k.tls) router["tls"] = json::object{};
    json::array servers;
    for (const auto& u : k.upstreams) servers.push_back(json::object{{"url", "http://" + address(u.host, u.port)}});
    json::object http{{"routers", {{kRouter, std::move(router)}}},
                      {"services", {{kService, {{"loadBalancer", {{"servers", std::move(servers)}}}}}}}};
    json::object cfg{{"http", std::move(http)}};
    if (k.tls) {
        // The default store's certificate is the one clients get without SNI
        // (a benchmark connects to an IP address); otherwise Traefik serves
        // a certificate it generates itself.
        json::object pair{{"certFile", k.cert_file}, {"keyFile", k.key_file}};
        cfg["tls"] = {{"certificates", json::array{pair}}, {"stores", {{"default", {{"defaultCertificate", pair}}}}}};
    }
    return cfg;
}

std::string render_traefik_static(const TraefikSettings& s, const std::string& dynamic_file) {
    return stand_proxy_kit::pretty_json(traefik_static_config(s, dynamic_file));
}

std::string render_traefik_dynamic(const TraefikSettings& s) {
    return stand_proxy_kit::pretty_json(traefik_dynamic_config(s));
}

}  // namespace stand_traefik
