// The haproxy plugin's config text for each knob and what it reads from
// `haproxy -v` / `haproxy -c`. `haproxy -c` on every variant:
// tests/unit/programs/haproxy_check_test.cpp; the plugin itself is tested
// with the other proxies (tests/unit/programs/proxy_plugins_test.cpp).
#include "haproxy_check_output.hpp"
#include "haproxy_config.hpp"
#include "haproxy_settings.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>

using stand_haproxy::HaproxySettings;
using stand_haproxy::render_haproxy_cfg;
using stand_haproxy::test::contains;
using stand_haproxy::test::origin;
using stand_haproxy::test::proxying;

TEST_CASE("haproxy config: without upstreams haproxy answers 200 with the body itself") {
    HaproxySettings s = origin();
    s.knobs.workers = 2;
    s.body = "hello there";
    std::string cfg = render_haproxy_cfg(s);
    CHECK(contains(cfg, "global\n  nbthread 2\n\n"));
    CHECK_FALSE(contains(cfg, "maxconn"));  // unset: haproxy derives it from ulimit -n
    CHECK(contains(cfg, "  bind 127.0.0.1:18081\n"));
    CHECK(contains(cfg, "  http-request return status 200 content-type text/plain string \"hello there\"\n"));
    CHECK_FALSE(contains(cfg, "backend"));
    CHECK_FALSE(contains(cfg, "timeout tunnel"));
}

TEST_CASE("haproxy config: pool unset is haproxy's default reuse, on is http-reuse safe, off closes") {
    std::string unset = render_haproxy_cfg(proxying(std::nullopt));
    CHECK(contains(unset, "  default_backend upstreams\n"));
    CHECK(contains(unset, "backend upstreams\n  # server connections: haproxy's default reuse mode (safe)\n"
                          "  server u0 127.0.0.1:9000\n  server u1 127.0.0.2:9001\n"));
    CHECK_FALSE(contains(unset, "  http-reuse"));
    CHECK_FALSE(contains(unset, "http-server-close"));
    CHECK_FALSE(contains(unset, "http-request return"));
    CHECK(stand_haproxy::upstream_pool_on(proxying(std::nullopt)));

    std::string on = render_haproxy_cfg(proxying(true));
    CHECK(contains(on, "backend upstreams\n  http-reuse safe\n  server u0 127.0.0.1:9000\n"));
    CHECK_FALSE(contains(on, "http-server-close"));
    CHECK(stand_haproxy::upstream_pool_on(proxying(true)));

    std::string off = render_haproxy_cfg(proxying(false));
    CHECK(contains(off, "backend upstreams\n  option http-server-close\n  server u0 127.0.0.1:9000\n"));
    CHECK_FALSE(contains(off, "http-reuse"));
    CHECK_FALSE(stand_haproxy::upstream_pool_on(proxying(false)));
}

TEST_CASE("haproxy config: max_connections is global maxconn, websocket the tunnel timeout, TLS and IPv6 the bind") {
    HaproxySettings s = proxying(std::nullopt);
    s.knobs.max_connections = 20000;
    s.knobs.websocket = true;
    s.knobs.listen_host = "0.0.0.0";
    s.knobs.listen_port = 8443;
    s.knobs.tls = true;
    s.tls_pem = "/data/haproxy/tls.pem";
    std::string cfg = render_haproxy_cfg(s);
    CHECK(contains(cfg, "global\n  nbthread 1\n  maxconn 20000\n\ndefaults\n"));
    CHECK(contains(cfg, "  timeout server 30s\n  timeout tunnel 1h\n"));
    CHECK(contains(cfg, "  bind 0.0.0.0:8443 ssl crt /data/haproxy/tls.pem alpn h2,http/1.1\n"));

    s.knobs.listen_host = "::1";
    s.knobs.upstreams = {{"::1", 9000}};
    cfg = render_haproxy_cfg(s);
    CHECK(contains(cfg, "  bind [::1]:8443 ssl crt "));
    CHECK(contains(cfg, "  server u0 [::1]:9000\n"));
}

TEST_CASE("haproxy check output: the alert naming the line comes first, version from the banner") {
    std::string text =
        "[NOTICE]   (32096) : haproxy version is 2.6.12-1+deb12u4\n"
        "[ALERT]    (32096) : config : Error(s) found in configuration file : bad.cfg\n"
        "[ALERT]    (32096) : config : parsing [bad.cfg:3] : unknown keyword 'frobnicate' in 'global' section\n";
    CHECK(stand_haproxy::check_alerts(text) ==
          "parsing [bad.cfg:3] : unknown keyword 'frobnicate' in 'global' section; "
          "Error(s) found in configuration file : bad.cfg");
    CHECK(stand_haproxy::check_alerts("Configuration file is valid\n").empty());
    std::string banner = "HAProxy version 2.6.12-1+deb12u4 2026/10/17 - https://haproxy.org/\nStatus: long-term\n";
    CHECK(stand_haproxy::first_line(banner) == "HAProxy version 2.6.12-1+deb12u4 2026/10/17 - https://haproxy.org/");
    CHECK(stand_haproxy::version_from_banner(banner) == "2.6.12-1+deb12u4");
}
