#include "config_render.hpp"

#include <sstream>

namespace %%ident%%_adapter {
namespace {

std::string address(const std::string& host, std::uint16_t port) {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

// proxy_pass to the upstream group, pooled or one connection per request,
// with websocket upgrades passed on when asked.
void proxy_location(std::ostringstream& c, bool pool, bool websocket) {
    c << "      proxy_pass http://backend;\n"
      << "      proxy_http_version 1.1;\n";
    if (websocket)
        c << "      proxy_set_header Upgrade $http_upgrade;\n"
          << "      proxy_set_header Connection $connection_upgrade;\n";
    else if (pool)
        c << "      proxy_set_header Connection \"\";\n";
}

}  // namespace

bool upstream_pool_on(const stand_proxy_kit::ProxySettings& s) { return s.knobs.upstream_keepalive.value_or(false); }

std::string render_config(const stand_proxy_kit::ProxySettings& s, const std::string& prefix) {
    const auto& k = s.knobs;
    const bool pool = upstream_pool_on(s);
    std::ostringstream c;
    c << "# written by the %%name%% plugin\n"
      << "worker_processes " << k.workers << ";\n"
      << "pid " << prefix << "/nginx.pid;\n"
      << "error_log " << prefix << "/error.log warn;\n"
      << "events { worker_connections " << k.max_connections.value_or(kDefaultConnections) << "; }\n"
      << "http {\n"
      << "  access_log off;\n";
    for (const char* temp : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"})
        c << "  " << temp << "_temp_path " << prefix << "/tmp/" << temp << ";\n";
    if (!k.upstreams.empty()) {
        c << "  upstream backend {\n";
        for (const auto& u : k.upstreams) c << "    server " << address(u.host, u.port) << ";\n";
        if (pool) c << "    keepalive " << stand_proxy_kit::kPoolIdlePerUpstream << ";\n";
        c << "  }\n";
        if (k.websocket) c << "  map $http_upgrade $connection_upgrade { default upgrade; '' " << (pool ? "''" : "close") << "; }\n";
    }
    c << "  server {\n"
      << "    listen " << address(k.listen_host, k.listen_port) << (k.tls ? " ssl" : "") << ";\n";
    if (k.tls) c << "    ssl_certificate " << k.cert_file << ";\n    ssl_certificate_key " << k.key_file << ";\n";
    c << "    location / {\n";
    if (k.upstreams.empty()) c << "      return 200 \"" << s.body << "\";\n";
    else proxy_location(c, pool, k.websocket);
    c << "    }\n  }\n}\n";
    return c.str();
}

}  // namespace %%ident%%_adapter
