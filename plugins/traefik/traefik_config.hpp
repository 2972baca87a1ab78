// Writes Traefik v3's two config files from the stand.proxy/1 knobs: the
// static config (traefik.yml: entry point, file provider, backend transport)
// and the dynamic config it points at (dynamic.yml: router, service, TLS).
// https://doc.traefik.io/traefik/getting-started/configuration-overview/
#pragma once

#include <stand/kits/proxy/proxy_knobs.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <string>

namespace stand_traefik {

inline constexpr const char* kEntryPoint = "stand";
inline constexpr const char* kRouter = "stand";
inline constexpr const char* kService = "stand-upstreams";
// serversTransport.maxIdleConnsPerHost: Traefik's default (cmd/configuration.go,
// documented in the install configuration options), and the documented
// value that disables connection reuse.
inline constexpr std::int64_t kDefaultIdlePerHost = 200;
inline constexpr std::int64_t kNoConnectionReuse = -1;

using TraefikSettings = stand_proxy_kit::ProxySettings;

// Whether backend connections are reused: Traefik keeps up to 200 idle
// connections per backend unless told otherwise, so unset means on.
bool upstream_pool_on(const TraefikSettings& s);

// Throws stand::cpp::Error(STAND_E_UNSUPPORTED) for what Traefik cannot do:
// origin mode (no static-response handler) and knobs.max_connections (no
// client connection limit on an entry point).
void check_traefik_knobs(const stand_proxy_kit::ProxyKnobs& k);

// The static config; `dynamic_file` is the path the file provider reads.
boost::json::object traefik_static_config(const TraefikSettings& s, const std::string& dynamic_file);

// The dynamic config (routers, services, TLS certificates).
boost::json::object traefik_dynamic_config(const TraefikSettings& s);

// Both as file text. Traefik reads .yml files as YAML; JSON written with
// ": " and ", " separators is YAML 1.2 flow style, and the same text is what
// the tests check against the JSON schemas.
std::string render_traefik_static(const TraefikSettings& s, const std::string& dynamic_file);
std::string render_traefik_dynamic(const TraefikSettings& s);

}  // namespace stand_traefik
