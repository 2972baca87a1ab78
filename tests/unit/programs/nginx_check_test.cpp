// The nginx plugin's config writer checked by the real `nginx -t` (Debian's
// nginx): the default, the upstream pool, websocket, TLS, and a missing
// certificate refused.
#include "nginx_config.hpp"
#include "temp_dir.hpp"
#include "tls/test_certificates.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

// `nginx -t` on a rendered config; returns its exit code.
int nginx_check(const stand_nginx::NginxSettings& s, const std::filesystem::path& prefix) {
    std::filesystem::create_directories(prefix / "tmp");
    std::ofstream(prefix / "nginx.conf") << stand_nginx::render_nginx_conf(s, prefix.string());
    const std::string cmd = "/usr/sbin/nginx -t -q -c " + (prefix / "nginx.conf").string() + " -p " + prefix.string() +
                            " -e " + (prefix / "error.log").string() + " 2>" + (prefix / "check.txt").string();
    return WEXITSTATUS(std::system(cmd.c_str()));
}

}  // namespace

TEST_CASE("nginx config: the default proxies with a literal proxy_pass, the pool adds an upstream keepalive block") {
    stand::test::TempDir dir;
    stand_nginx::NginxSettings s;
    s.knobs.listen_port = 18080;
    s.knobs.upstreams = {{"127.0.0.1", 19000}};
    const auto plain = stand_nginx::render_nginx_conf(s, dir.path().string());
    CHECK(plain.find("proxy_pass http://127.0.0.1:19000;") != std::string::npos);
    CHECK(plain.find("upstream") == std::string::npos);
    CHECK(plain.find("proxy_http_version") == std::string::npos);
    CHECK_FALSE(stand_nginx::upstream_pool_on(s));
    CHECK(nginx_check(s, dir.path() / "plain") == 0);

    s.knobs.upstream_keepalive = true;
    const auto pooled = stand_nginx::render_nginx_conf(s, dir.path().string());
    CHECK(pooled.find("keepalive 1024;") != std::string::npos);
    CHECK(pooled.find("proxy_pass http://backend;") != std::string::npos);
    CHECK(pooled.find("proxy_http_version 1.1;") != std::string::npos);
    CHECK(pooled.find("proxy_set_header Connection \"\";") != std::string::npos);
    CHECK(nginx_check(s, dir.path() / "pooled") == 0);

    s.knobs.websocket = true;
    const auto ws = stand_nginx::render_nginx_conf(s, dir.path().string());
    CHECK(ws.find("proxy_set_header Upgrade $http_upgrade;") != std::string::npos);
    CHECK(ws.find("map $http_upgrade $connection_upgrade { default upgrade; '' ''; }") != std::string::npos);
    CHECK(nginx_check(s, dir.path() / "ws") == 0);

    auto cert = stand::tls::ensure_test_certificate(dir.path() / "certs", "p256");
    s.knobs.tls = true;
    s.knobs.cert_file = cert.cert_file.string();
    s.knobs.key_file = cert.key_file.string();
    s.knobs.max_connections = 64;
    const auto tls = stand_nginx::render_nginx_conf(s, dir.path().string());
    CHECK(tls.find("listen 127.0.0.1:18080 ssl http2;") != std::string::npos);
    CHECK(tls.find("worker_connections 64;") != std::string::npos);
    CHECK(nginx_check(s, dir.path() / "tls") == 0);

    s.knobs.cert_file = (dir.path() / "missing.crt").string();
    CHECK(nginx_check(s, dir.path() / "bad") != 0);  // nginx -t refuses what nginx would refuse
}
