#include "nginx_config.hpp"

#include <sstream>

namespace stand_nginx {

std::string render_nginx_conf(const NginxSettings& s, const std::string& prefix) {
    std::ostringstream c;
    c << "# written by the stand nginx plugin\n"
      << "worker_processes " << s.workers << ";\n"
      << "pid " << prefix << "/nginx.pid;\n"
      << "error_log " << prefix << "/error.log warn;\n"
      << "events { worker_connections " << s.worker_connections << "; }\n"
      << "http {\n"
      << "  access_log off;\n"
      << "  client_body_temp_path " << prefix << "/tmp/body;\n"
      << "  proxy_temp_path " << prefix << "/tmp/proxy;\n"
      << "  fastcgi_temp_path " << prefix << "/tmp/fastcgi;\n"
      << "  uwsgi_temp_path " << prefix << "/tmp/uwsgi;\n"
      << "  scgi_temp_path " << prefix << "/tmp/scgi;\n"
      << "  keepalive_requests 1000000;\n";
    if (!s.upstreams.empty()) {
        c << "  upstream backend {\n";
        for (const auto& u : s.upstreams) c << "    server " << u.host << ":" << u.port << ";\n";
        if (s.upstream_keepalive) c << "    keepalive 64;\n";
        c << "  }\n";
    }
    c << "  server {\n"
      << "    listen " << s.listen_host << ":" << s.listen_port << ";\n"
      << "    location / {\n";
    if (s.upstreams.empty()) {
        c << "      default_type text/plain;\n"
          << "      return 200 \"" << s.body << "\";\n";
    } else {
        c << "      proxy_pass http://backend;\n";
        if (s.upstream_keepalive) c << "      proxy_http_version 1.1;\n      proxy_set_header Connection \"\";\n";
    }
    c << "    }\n  }\n}\n";
    return c.str();
}

}  // namespace stand_nginx
