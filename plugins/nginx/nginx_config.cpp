#include "nginx_config.hpp"

#include <sstream>

namespace stand_nginx {
namespace {

std::string address(const std::string& host, std::uint16_t port) {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace

bool upstream_pool_on(const NginxSettings& s) { return s.knobs.upstream_keepalive.value_or(false); }

std::string render_nginx_conf(const NginxSettings& s, const std::string& prefix) {
    const auto& k = s.knobs;
    const bool pool = upstream_pool_on(s);
    // A literal `proxy_pass http://host:port` is what an out-of-the-box
    // config does; the upstream block is needed for `keepalive` (or for more
    // than one server).
    const bool upstream_block = !k.upstreams.empty() && (pool || k.upstreams.size() > 1);
    std::ostringstream c;
    c << "# written by the stand nginx plugin\n"
      << "worker_processes " << k.workers << ";\n"
      << "pid " << prefix << "/nginx.pid;\n"
      << "error_log " << prefix << "/error.log warn;\n"
      << "events { worker_connections " << k.max_connections.value_or(kWorkerConnections) << "; }\n"
      << "http {\n"
      << "  access_log off;\n"
      << "  client_body_temp_path " << prefix << "/tmp/body;\n"
      << "  proxy_temp_path " << prefix << "/tmp/proxy;\n"
      << "  fastcgi_temp_path " << prefix << "/tmp/fastcgi;\n"
      << "  uwsgi_temp_path " << prefix << "/tmp/uwsgi;\n"
      << "  scgi_temp_path " << prefix << "/tmp/scgi;\n"
      << "  keepalive_requests 1000000;\n";
    if (k.websocket && !k.upstreams.empty())
        c << "  map $http_upgrade $connection_upgrade { default upgrade; '' " << (pool ? "''" : "close") << "; }\n";
    if (upstream_block) {
        c << "  upstream backend {\n";
        for (const auto& u : k.upstreams) c << "    server " << address(u.host, u.port) << ";\n";
        if (pool) c << "    keepalive " << stand_proxy_kit::kPoolIdlePerUpstream << ";\n";
        c << "  }\n";
    }
    c << "  server {\n"
      << "    listen " << address(k.listen_host, k.listen_port) << (k.tls ? " ssl http2" : "") << ";\n";
    if (k.tls)
        c << "    ssl_certificate " << k.cert_file << ";\n"
          << "    ssl_certificate_key " << k.key_file << ";\n";
    c << "    location / {\n";
    if (k.upstreams.empty()) {
        c << "      default_type text/plain;\n"
          << "      return 200 \"" << s.body << "\";\n";
    } else {
        c << "      proxy_pass http://"
          << (upstream_block ? std::string("backend") : address(k.upstreams[0].host, k.upstreams[0].port)) << ";\n";
        if (pool || k.websocket) c << "      proxy_http_version 1.1;\n";
        if (k.websocket)
            c << "      proxy_set_header Upgrade $http_upgrade;\n"
              << "      proxy_set_header Connection $connection_upgrade;\n"
              << "      proxy_read_timeout 1h;\n";
        else if (pool)
            c << "      proxy_set_header Connection \"\";\n";
    }
    c << "    }\n  }\n}\n";
    return c.str();
}

}  // namespace stand_nginx
