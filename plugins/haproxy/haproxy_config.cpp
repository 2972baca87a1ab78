#include "haproxy_config.hpp"

#include <sstream>

namespace stand_haproxy {

namespace {

std::string address(const std::string& host, std::uint16_t port) {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

void render_frontend(std::ostringstream& c, const HaproxySettings& s) {
    const auto& k = s.knobs;
    c << "frontend stand\n"
      << "  bind " << address(k.listen_host, k.listen_port);
    if (k.tls) c << " ssl crt " << s.tls_pem << " alpn " << kAlpn;
    c << "\n";
    if (k.upstreams.empty())
        c << "  http-request return status 200 content-type text/plain string \"" << s.body << "\"\n";
    else
        c << "  default_backend upstreams\n";
}

void render_backend(std::ostringstream& c, const HaproxySettings& s) {
    const auto& k = s.knobs;
    c << "\nbackend upstreams\n";
    if (!k.upstream_keepalive)
        c << "  # server connections: haproxy's default reuse mode (safe)\n";
    else if (*k.upstream_keepalive)
        c << "  http-reuse safe\n";
    else
        c << "  option http-server-close\n";
    for (std::size_t i = 0; i < k.upstreams.size(); ++i)
        c << "  server u" << i << " " << address(k.upstreams[i].host, k.upstreams[i].port) << "\n";
}

}  // namespace

bool upstream_pool_on(const stand_proxy_kit::ProxySettings& s) { return s.knobs.upstream_keepalive.value_or(true); }

std::string render_haproxy_cfg(const HaproxySettings& s) {
    const auto& k = s.knobs;
    std::ostringstream c;
    c << "# written by the stand haproxy plugin\n"
      << "global\n"
      << "  nbthread " << k.workers << "\n";
    // Unset: haproxy derives maxconn from the file descriptor limit.
    if (k.max_connections) c << "  maxconn " << *k.max_connections << "\n";
    c << "\ndefaults\n"
      << "  mode http\n"
      << "  timeout connect 5s\n"
      << "  timeout client 30s\n"
      << "  timeout server 30s\n";
    if (k.websocket) c << "  timeout tunnel " << kTunnelTimeout << "\n";
    c << "\n";
    render_frontend(c, s);
    if (!k.upstreams.empty()) render_backend(c, s);
    return c.str();
}

}  // namespace stand_haproxy
