// Writes nginx.conf from the stand.proxy/1 knobs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stand_nginx {

struct Upstream {
    std::string host;
    std::uint16_t port = 0;
};

struct NginxSettings {
    std::string listen_host = "127.0.0.1";
    std::uint16_t listen_port = 18080;
    std::int64_t workers = 1;
    std::string body = "ok";           // origin mode: `return 200 body`
    std::vector<Upstream> upstreams;   // proxy mode when not empty
    bool upstream_keepalive = true;
    std::int64_t worker_connections = 4096;
};

// The complete nginx.conf; `prefix` holds logs, pid and temp paths.
std::string render_nginx_conf(const NginxSettings& s, const std::string& prefix);

}  // namespace stand_nginx
