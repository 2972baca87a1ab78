#include "caddy_config.hpp"

namespace stand_caddy {

namespace json = boost::json;

namespace {

// Caddy's network addresses put an IPv6 host in brackets.
std::string host_port(const std::string& host, std::uint16_t port) {
    bool ipv6 = host.find(':') != std::string::npos;
    return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

json::object origin_handler(const CaddySettings& s) {
    return {{"handler", "static_response"},
            {"status_code", 200},
            {"headers", {{"Content-Type", json::array{"text/plain"}}}},
            {"body", s.body}};
}

json::object proxy(json::array upstreams, json::object transport) {
    return {{"handler", "reverse_proxy"}, {"upstreams", std::move(upstreams)}, {"transport", std::move(transport)}};
}

json::object proxy_handler(const CaddySettings& s) {
    json::array upstreams;
    for (const auto& u : s.knobs.upstreams) upstreams.push_back(json::object{{"dial", host_port(u.host, u.port)}});
    json::object transport{{"protocol", "http"}};
    // Unset leaves keep_alive out: Caddy 2.6 fills in its defaults only when
    // the whole object is absent; {"enabled": true} alone would drop them
    // (Go's 2 idle connections per host, no idle timeout), so "on" states
    // them all, with the kit's pool size instead of Caddy's 32 per host.
    if (!s.knobs.upstream_keepalive) return proxy(std::move(upstreams), std::move(transport));
    transport["keep_alive"] = *s.knobs.upstream_keepalive ? pool_on_keep_alive() : json::object{{"enabled", false}};
    return proxy(std::move(upstreams), std::move(transport));
}

json::object server(const CaddySettings& s) {
    const auto& k = s.knobs;
    json::object handler = k.upstreams.empty() ? origin_handler(s) : proxy_handler(s);
    json::object srv{{"listen", json::array{host_port(k.listen_host, k.listen_port)}},
                     // h3 would open a UDP listener the other proxies do not have.
                     {"protocols", json::array{"h1", "h2"}},
                     {"automatic_https", {{"disable", true}}},
                     {"routes", json::array{json::object{{"handle", json::array{std::move(handler)}}}}}};
    if (k.tls) srv["tls_connection_policies"] = json::array{json::object{}};
    return srv;
}

}  // namespace

json::object pool_on_keep_alive() {
    return {{"enabled", true},
            {"probe_interval", kKeepAliveProbeInterval},
            {"idle_timeout", kKeepAliveIdleTimeout},
            {"max_idle_conns_per_host", stand_proxy_kit::kPoolIdlePerUpstream}};
}

bool upstream_pool_on(const CaddySettings& s) { return s.knobs.upstream_keepalive.value_or(true); }

json::object render_caddy_config(const CaddySettings& s, const std::string& prefix) {
    const auto& k = s.knobs;
    json::object apps{{"http", {{"servers", {{"stand", server(s)}}}}}};
    if (k.tls)
        apps["tls"] = json::object{
            {"certificates",
             {{"load_files", json::array{json::object{{"certificate", k.cert_file}, {"key", k.key_file}}}}}}};
    // No admin endpoint: two instances would clash on :2019, and nothing reconfigures a running caddy.
    return {{"admin", {{"disabled", true}, {"config", {{"persist", false}}}}},
            {"logging", {{"logs", {{"default", {{"level", "WARN"}}}}}}},
            {"storage", {{"module", "file_system"}, {"root", prefix + "/storage"}}},
            {"apps", std::move(apps)}};
}

}  // namespace stand_caddy
