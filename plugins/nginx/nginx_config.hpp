// Writes nginx.conf from the stand.proxy/1 knobs.
#pragma once

#include <stand/kits/proxy/proxy_knobs.hpp>

#include <cstdint>
#include <string>

namespace stand_nginx {

// nginx's own default worker_connections is 512; the plugin raises it so a
// connection test measures nginx, not a limit it was never given.
inline constexpr std::int64_t kWorkerConnections = 4096;

using NginxSettings = stand_proxy_kit::ProxySettings;

// Whether backend connections are reused: nginx before 1.29.7 (Debian 12
// ships 1.22.1) proxies with HTTP/1.0 and `Connection: close` unless told
// otherwise, so unset means off.
bool upstream_pool_on(const NginxSettings& s);

// The complete nginx.conf; `prefix` holds logs, pid and temp paths.
std::string render_nginx_conf(const NginxSettings& s, const std::string& prefix);

}  // namespace stand_nginx
