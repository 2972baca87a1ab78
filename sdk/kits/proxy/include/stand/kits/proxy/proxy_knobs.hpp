// The stand.proxy/1 knobs (sdk/include/stand/ext/proxy.h), read the same way
// by every proxy plugin so that a comparison differs only where the knobs say.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stand_proxy_kit {

struct Upstream {
    std::string host;
    std::uint16_t port = 0;
};

struct ProxyKnobs {
    std::string listen_host = "127.0.0.1";
    std::uint16_t listen_port = 0;
    bool tls = false;
    std::string cert_file;               // PEM; required when tls
    std::string key_file;
    std::vector<Upstream> upstreams;     // empty: the proxy answers by itself (origin mode)
    // Unset: the proxy's own default, which differs between proxies (the
    // point of seed 002); each plugin states it in effective_defaults().
    std::optional<bool> upstream_keepalive;
    bool websocket = false;              // pass Upgrade through to the upstream
    std::int64_t workers = 1;
    std::optional<std::int64_t> max_connections;  // unset: the proxy's default limit
};

// The pool when knobs.upstream_keepalive is true: the idle backend
// connections a proxy keeps per upstream (nginx: per worker), set
// explicitly and above any client concurrency a scenario uses (seed 002's
// measurements: 200 client connections), so "pool on" is fully on for every
// proxy. A smaller cache churns: nginx's keepalive 32 with 50 clients still
// opened 0.23 backend connections per request here, Caddy's own 32 per host
// about 0.1. Unset leaves each proxy's own default pool.
inline constexpr std::int64_t kPoolIdlePerUpstream = 1024;

// What a proxy runs from: the knobs, and the origin-mode body.
struct ProxySettings {
    ProxyKnobs knobs;
    std::string body = "ok";  // origin mode (no upstreams): the 200 answer's body
};

// Applies `knobs` on top of `current` and returns the result; `current` is
// not touched, so a refused configure() leaves the previous settings in force.
// Throws stand::cpp::ConfigError naming the knob (unknown knob, wrong type,
// out of range, tls without tls_key).
ProxyKnobs apply_proxy_knobs(const boost::json::object& knobs, ProxyKnobs current);

// {"scheme","host","port"[,"alpn"]}: where clients connect (proxy.endpoint()).
boost::json::object proxy_endpoint(const ProxyKnobs& k, const std::vector<std::string>& tls_alpn);

// "http(s)://host:port".
std::string proxy_base_url(const ProxyKnobs& k);

// The readiness request for stand.lifecycle/1: GET / expecting 200. With
// TLS the plugin's own certificate is usually self-signed, so the poll is
// told not to verify it (it checks liveness, not identity).
boost::json::object proxy_readiness(const ProxyKnobs& k);

}  // namespace stand_proxy_kit
