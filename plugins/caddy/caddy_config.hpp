// Writes Caddy's native JSON config from the stand.proxy/1 knobs.
#pragma once

#include <stand/kits/proxy/proxy_knobs.hpp>

#include <boost/json.hpp>

#include <string>

namespace stand_caddy {

using CaddySettings = stand_proxy_kit::ProxySettings;

// Caddy 2.6's http transport keep-alive defaults (reverseproxy/httptransport.go,
// NewTransport), used when keep_alive is left out.
inline constexpr const char* kKeepAliveProbeInterval = "30s";
inline constexpr const char* kKeepAliveIdleTimeout = "2m";
inline constexpr std::int64_t kKeepAliveIdlePerHost = 32;

// The transport's keep_alive for knobs.upstream_keepalive = true: Caddy's
// defaults with kPoolIdlePerUpstream idle connections per host.
boost::json::object pool_on_keep_alive();

// Whether upstream connections are kept alive. Unset is Caddy's default: on.
bool upstream_pool_on(const CaddySettings& s);

// The complete config for `caddy run --adapter ""`; `prefix` holds Caddy's
// storage (certificate cache, locks), so instances share nothing.
// knobs.max_connections has no counterpart in it (the plugin refuses it).
boost::json::object render_caddy_config(const CaddySettings& s, const std::string& prefix);

}  // namespace stand_caddy
