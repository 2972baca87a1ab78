// The caddy plugin's JSON config for each knob and what it reads from `caddy
// version` / `caddy validate`. Caddy's own `caddy validate` on every variant:
// tests/unit/programs/caddy_check_test.cpp; the plugin itself is tested
// with the other proxies (tests/unit/programs/proxy_plugins_test.cpp).
#include "caddy_config.hpp"
#include "caddy_output.hpp"
#include "caddy_settings.hpp"

#include <doctest/doctest.h>

#include <boost/json.hpp>

#include <optional>

namespace json = boost::json;
using stand_caddy::CaddySettings;
using stand_caddy::test::origin;
using stand_caddy::test::proxying;

namespace {

const json::object& stand_server(const json::object& config) {
    return config.at("apps").at("http").at("servers").at("stand").as_object();
}
const json::object& first_handler(const json::object& config) {
    return stand_server(config).at("routes").at(0).at("handle").at(0).as_object();
}

}  // namespace

TEST_CASE("caddy config: origin mode is a static_response on a plain listener without admin") {
    CaddySettings s = origin();
    s.body = "hello";
    auto c = stand_caddy::render_caddy_config(s, "/run/x/caddy");
    CHECK(c.at("admin").at("disabled") == true);
    CHECK(c.at("storage").at("root") == "/run/x/caddy/storage");
    const auto& server = stand_server(c);
    CHECK(server.at("listen") == json::array{"127.0.0.1:18082"});
    CHECK(server.at("protocols") == json::array{"h1", "h2"});
    CHECK(server.at("automatic_https").at("disable") == true);
    CHECK_FALSE(server.contains("tls_connection_policies"));
    CHECK_FALSE(c.at("apps").as_object().contains("tls"));
    const auto& h = first_handler(c);
    CHECK(h.at("handler") == "static_response");
    CHECK(h.at("status_code") == 200);
    CHECK(h.at("body") == "hello");
}

TEST_CASE("caddy config: pool unset leaves Caddy's keep-alive defaults, on states them with 1024 idle per host, off disables it") {
    auto unset = stand_caddy::render_caddy_config(proxying(std::nullopt), "/p");
    const auto& h = first_handler(unset);
    CHECK(h.at("handler") == "reverse_proxy");
    CHECK(h.at("upstreams") ==
          json::array{json::object{{"dial", "127.0.0.1:9000"}}, json::object{{"dial", "[::1]:9001"}}});
    CHECK(h.at("transport") == json::object{{"protocol", "http"}});
    CHECK(stand_caddy::upstream_pool_on(proxying(std::nullopt)));

    // An explicit keep_alive object loses Caddy's defaults it leaves out: on states them all.
    auto on = stand_caddy::render_caddy_config(proxying(true), "/p");
    CHECK(first_handler(on).at("transport") ==
          json::object{{"protocol", "http"},
                       {"keep_alive", json::object{{"enabled", true},
                                                   {"probe_interval", "30s"},
                                                   {"idle_timeout", "2m"},
                                                   {"max_idle_conns_per_host", 1024}}}});
    CHECK(stand_caddy::upstream_pool_on(proxying(true)));

    auto off = stand_caddy::render_caddy_config(proxying(false), "/p");
    CHECK(first_handler(off).at("transport") ==
          json::object{{"protocol", "http"}, {"keep_alive", json::object{{"enabled", false}}}});
    CHECK_FALSE(stand_caddy::upstream_pool_on(proxying(false)));
}

TEST_CASE("caddy config: websocket changes nothing (upgrades always pass), TLS loads the given files") {
    auto plain = stand_caddy::render_caddy_config(proxying(std::nullopt), "/p");
    auto ws = proxying(std::nullopt);
    ws.knobs.websocket = true;
    CHECK(stand_caddy::render_caddy_config(ws, "/p") == plain);  // reverse_proxy passes upgrades anyway

    auto s = proxying(true);
    s.knobs.tls = true;
    s.knobs.cert_file = "/etc/c.pem";
    s.knobs.key_file = "/etc/k.pem";
    auto c = stand_caddy::render_caddy_config(s, "/p");
    CHECK(stand_server(c).at("tls_connection_policies") == json::array{json::object{}});
    CHECK(stand_server(c).at("automatic_https").at("disable") == true);
    CHECK(c.at("apps").at("tls").at("certificates").at("load_files") ==
          json::array{json::object{{"certificate", "/etc/c.pem"}, {"key", "/etc/k.pem"}}});
}

TEST_CASE("caddy output: the version from `caddy version`, the reason after the last Error:") {
    CHECK(stand_caddy::version_from_output("2.6.2\n") == "2.6.2");
    CHECK(stand_caddy::version_from_output("v2.6.2 h1:oqd3nIs2dYNs3VbmzoYUdWpUTk2akzjj25WSjPpuyNY=\n") == "2.6.2");
    CHECK(stand_caddy::version_from_output("caddy: command not found\n").empty());
    CHECK(stand_caddy::command_error("{\"level\":\"info\"}\nError: loading config: bad thing\n") ==
          "loading config: bad thing");
    CHECK(stand_caddy::command_error("no error line\n") == "no error line");
}
