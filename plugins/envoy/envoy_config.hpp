// Writes Envoy's v3 bootstrap (envoy.json) from the stand.proxy/1 knobs.
// https://www.envoyproxy.io/docs/envoy/latest/configuration/overview/bootstrap
#pragma once

#include <stand/kits/proxy/proxy_knobs.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <string>

namespace stand_envoy {

inline constexpr const char* kListenerName = "stand_listener";
inline constexpr const char* kClusterName = "stand_upstreams";
// The resource monitor name Envoy's overload manager reads as the global
// downstream connection limit ("Limiting Active Connections").
inline constexpr const char* kConnectionMonitor = "envoy.resource_monitors.global_downstream_max_connections";
inline constexpr const char* kHttpProtocolOptions = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";
// Per-cluster circuit-breaker defaults (max_connections, max_pending_requests,
// max_requests), left as they are and reported: see README.md.
inline constexpr std::int64_t kCircuitBreakerDefault = 1024;
// A WebSocket stays open as long as nginx's proxy_read_timeout 1h allows.
inline constexpr const char* kWebsocketIdleTimeout = "3600s";

using EnvoySettings = stand_proxy_kit::ProxySettings;

// Whether backend connections are reused. Envoy keeps upstream HTTP/1.1
// connections in a per-worker pool with no per-connection request limit
// unless told otherwise, so unset means on.
bool upstream_pool_on(const EnvoySettings& s);

// Envoy binds listeners to IP addresses only; throws stand::cpp::ConfigError
// naming knobs.listen.host for a host name.
void check_envoy_knobs(const stand_proxy_kit::ProxyKnobs& k);

// The bootstrap as JSON (Envoy's proto3 JSON mapping, snake_case names).
boost::json::object envoy_bootstrap(const EnvoySettings& s);

// The same as the text of envoy.json.
std::string render_envoy_config(const EnvoySettings& s);

}  // namespace stand_envoy
