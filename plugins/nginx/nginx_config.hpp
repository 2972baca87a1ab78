// Writes nginx.conf from the stand.proxy/1 knobs.
#pragma once

#include "proxy_knobs.hpp"

#include <cstdint>
#include <string>

namespace stand_nginx {

// nginx's own default worker_connections is 512; the plugin raises it so a
// connection test measures nginx, not a limit it was never given.
inline constexpr std::int64_t kWorkerConnections = 4096;
// Connections each worker keeps idle per upstream block when the pool is on.
// Above the client concurrency a comparison uses (50): a smaller cache churns
// (keepalive 32 with 50 clients still opened 0.23 backend connections per
// request here), so "pool on" would be half on.
inline constexpr std::int64_t kUpstreamKeepalive = 128;

struct NginxSettings {
    stand_proxy_kit::ProxyKnobs knobs;
    std::string body = "ok";  // origin mode: `return 200 body`
};

// Whether backend connections are reused: nginx before 1.29.7 (Debian 12
// ships 1.22.1) proxies with HTTP/1.0 and `Connection: close` unless told
// otherwise, so unset means off.
bool upstream_pool_on(const NginxSettings& s);

// The complete nginx.conf; `prefix` holds logs, pid and temp paths.
std::string render_nginx_conf(const NginxSettings& s, const std::string& prefix);

}  // namespace stand_nginx
