// The caddy plugin: its JSON config for each knob, Caddy 2.6's own
// `caddy validate` on every variant, and the plugin driven through a plugin
// worker against the real caddy.
#include "caddy_config.hpp"
#include "caddy_output.hpp"
#include "proxy_plugin_support.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace stand;
using namespace std::chrono_literals;
namespace json = boost::json;
using stand_caddy::CaddySettings;

namespace {

const char* const kCaddy = "/usr/bin/caddy";

// Runs `caddy validate` on `config`; returns its exit code, output in `log`.
int caddy_validate(const std::filesystem::path& dir, const json::object& config, std::string& log) {
    auto file = dir / "validate.json";
    std::ofstream(file) << json::serialize(config);
    return test::run_shell(std::string(kCaddy) + " validate --config " + file.string() + " --adapter ''", log);
}

CaddySettings origin() {
    CaddySettings s;
    s.knobs.listen_port = 18082;
    return s;
}

CaddySettings proxying(std::optional<bool> keepalive) {
    CaddySettings s = origin();
    s.knobs.upstreams = {{"127.0.0.1", 9000}, {"::1", 9001}};
    s.knobs.upstream_keepalive = keepalive;
    return s;
}

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

TEST_CASE("caddy config: pool unset and on leave Caddy's keep-alive defaults, off disables keep_alive") {
    auto unset = stand_caddy::render_caddy_config(proxying(std::nullopt), "/p");
    const auto& h = first_handler(unset);
    CHECK(h.at("handler") == "reverse_proxy");
    CHECK(h.at("upstreams") ==
          json::array{json::object{{"dial", "127.0.0.1:9000"}}, json::object{{"dial", "[::1]:9001"}}});
    CHECK(h.at("transport") == json::object{{"protocol", "http"}});
    CHECK(stand_caddy::upstream_pool_on(proxying(std::nullopt)));

    // An explicit keep_alive object would lose Caddy's defaults: on must render exactly like unset.
    auto on = stand_caddy::render_caddy_config(proxying(true), "/p");
    CHECK(first_handler(on).at("transport") == json::object{{"protocol", "http"}});
    CHECK(stand_caddy::upstream_pool_on(proxying(true)));

    auto off = stand_caddy::render_caddy_config(proxying(false), "/p");
    CHECK(first_handler(off).at("transport") ==
          json::object{{"protocol", "http"}, {"keep_alive", json::object{{"enabled", false}}}});
    CHECK_FALSE(stand_caddy::upstream_pool_on(proxying(false)));
}

TEST_CASE("caddy config: websocket changes nothing (upgrades always pass); TLS loads the given files") {
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

TEST_CASE("caddy validate accepts every rendered variant and refuses a missing certificate") {
    if (!std::filesystem::exists(kCaddy)) {
        MESSAGE("caddy is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir dir;
    auto cert = test::make_cert(dir.path());
    for (auto keepalive : {std::optional<bool>{}, std::optional<bool>{true}, std::optional<bool>{false}}) {
        for (bool tls : {false, true}) {
            for (bool is_origin : {false, true}) {
                auto s = proxying(keepalive);
                if (is_origin) s.knobs.upstreams.clear();
                s.knobs.tls = tls;
                s.knobs.websocket = tls;  // no effect on the config; validated anyway
                s.knobs.cert_file = cert.cert;
                s.knobs.key_file = cert.key;
                std::string log;
                CAPTURE(keepalive.has_value());
                CAPTURE(keepalive.value_or(false));
                CAPTURE(tls);
                CAPTURE(is_origin);
                auto config = stand_caddy::render_caddy_config(s, dir.path().string());
                CHECK_MESSAGE(caddy_validate(dir.path(), config, log) == 0, log);
            }
        }
    }
    CaddySettings missing = origin();
    missing.knobs.tls = true;
    missing.knobs.cert_file = (dir.path() / "nope.pem").string();
    missing.knobs.key_file = cert.key;
    std::string log;
    CHECK(caddy_validate(dir.path(), stand_caddy::render_caddy_config(missing, dir.path().string()), log) != 0);
    CHECK_MESSAGE(log.find("nope.pem: no such file or directory") != std::string::npos, log);
}

TEST_CASE("caddy plugin: install, start, serve, proxy, stop and wipe the real caddy") {
    if (!std::filesystem::exists(kCaddy)) {
        MESSAGE("caddy is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir dir;
    auto worker = test::proxy_worker("caddy", dir.path() / "origin");
    auto port = test::free_port();
    auto created = worker->create(R"({"box": "", "port": )" + std::to_string(port) + R"(, "body": "hello"})", 10s);
    REQUIRE_MESSAGE(created.ok(), created.error);
    auto configured = worker->call("proxy.configure", {{"knobs", {{"workers", 2}, {"websocket", true}}}}, 30s);
    REQUIRE_MESSAGE(configured.ok(), configured.error);

    auto installed = worker->call("lifecycle.install", {}, 30s);
    REQUIRE_MESSAGE(installed.ok(), installed.error);
    auto facts = worker->call("lifecycle.facts", {}, 10s);
    REQUIRE(facts.ok());
    CHECK(facts.output.at("versions").at("caddy").as_string().starts_with("2."));
    CHECK(facts.output.at("binary") == kCaddy);
    CHECK(facts.output.at("environment").at("GOMAXPROCS") == "2");
    CHECK(std::filesystem::exists(std::string(facts.output.at("config").as_string())));
    const auto& defaults = facts.output.at("defaults");
    CHECK(defaults.at("workers") == 2);
    CHECK(defaults.at("version") == facts.output.at("versions").at("caddy"));
    CHECK(defaults.at("max_connections") == "none: Caddy has no client connection limit");
    CHECK(defaults.at("upstream_keepalive") == true);
    CHECK(defaults.at("upstream_keepalive_source") == "caddy default");
    CHECK(defaults.at("upstream_pool").at("idle_timeout") == "2m");
    CHECK(defaults.at("upstream_pool").at("max_idle_conns_per_host") == 32);
    CHECK(defaults.at("websocket").as_string().starts_with("upgrades always proxied"));

    auto ready = worker->call("lifecycle.readiness", {}, 10s);
    REQUIRE(ready.ok());
    std::string url(ready.output.at("url").as_string());
    CHECK(url == "http://127.0.0.1:" + std::to_string(port) + "/");
    CHECK_FALSE(ready.output.as_object().contains("insecure_tls"));

    REQUIRE(worker->call("lifecycle.start", {}, 30s).ok());
    auto response = test::http_get_when_up(url);
    REQUIRE_FALSE(response.empty());
    CHECK(response.at("status").to_number<std::int64_t>() == 200);
    CHECK(response.at("body") == "hello");
    CHECK(worker->call("lifecycle.start", {}, 10s).code == STAND_E_BAD_STATE);

    {  // a second caddy proxies to the first, without keep-alive to it
        auto proxy = test::proxy_worker("caddy", dir.path() / "proxy");
        auto proxy_port = test::free_port();
        REQUIRE(proxy->create(R"({"box": "", "port": )" + std::to_string(proxy_port) + "}", 10s).ok());
        json::object knobs{{"upstreams", json::array{json::object{{"host", "127.0.0.1"}, {"port", port}}}},
                           {"upstream_keepalive", false}};
        auto proxy_configured = proxy->call("proxy.configure", {{"knobs", knobs}}, 30s);
        REQUIRE_MESSAGE(proxy_configured.ok(), proxy_configured.error);
        auto proxy_defaults = proxy->call("proxy.effective_defaults", {}, 10s);
        REQUIRE(proxy_defaults.ok());
        CHECK(proxy_defaults.output.at("upstream_keepalive") == false);
        CHECK(proxy_defaults.output.at("upstream_keepalive_source") == "knob");
        CHECK(proxy_defaults.output.at("upstream_pool") == json::object{{"keep_alive", false}});
        auto started = proxy->call("lifecycle.start", {}, 30s);
        REQUIRE_MESSAGE(started.ok(), started.error);
        auto proxied = test::http_get_when_up("http://127.0.0.1:" + std::to_string(proxy_port) + "/");
        REQUIRE_FALSE(proxied.empty());
        CHECK(proxied.at("body") == "hello");
        CHECK(proxy->call("lifecycle.stop", {}, 15s).ok());
        CHECK(proxy->shutdown(10s).ok());
    }

    CHECK(worker->call("lifecycle.wipe", {}, 10s).code == STAND_E_BAD_STATE);
    REQUIRE(worker->call("lifecycle.restart", {}, 30s).ok());
    CHECK(test::http_get_when_up(url).at("body") == "hello");
    REQUIRE(worker->call("lifecycle.stop", {}, 15s).ok());
    CHECK_THROWS(test::http_get(url));  // nothing listens any more
    CHECK(worker->call("lifecycle.stop", {}, 15s).code == STAND_OK_NOTHING_TO_DO);
    REQUIRE(worker->call("lifecycle.wipe", {}, 10s).ok());
    CHECK_FALSE(std::filesystem::exists(dir.path() / "origin" / "data" / "caddy" / "caddy"));
    CHECK(worker->shutdown(10s).ok());
}

TEST_CASE("caddy plugin: TLS serves the given P-256 certificate and reports its key type") {
    if (!std::filesystem::exists(kCaddy)) {
        MESSAGE("caddy is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir dir;
    auto cert = test::make_cert(dir.path());
    auto worker = test::proxy_worker("caddy", dir.path() / "run");
    auto port = test::free_port();
    REQUIRE(worker->create(R"({"box": "", "port": )" + std::to_string(port) + "}", 10s).ok());
    json::object knobs{{"listen", {{"tls", true}}}, {"tls_key", {{"cert_file", cert.cert}, {"key_file", cert.key}}}};
    auto configured = worker->call("proxy.configure", {{"knobs", knobs}}, 30s);
    REQUIRE_MESSAGE(configured.ok(), configured.error);
    auto endpoint = worker->call("proxy.endpoint", {}, 10s);
    REQUIRE(endpoint.ok());
    CHECK(endpoint.output == json::object{{"scheme", "https"}, {"host", "127.0.0.1"}, {"port", port},
                                          {"alpn", json::array{"h2", "http/1.1"}}});
    auto ready = worker->call("lifecycle.readiness", {}, 10s);
    REQUIRE(ready.ok());
    CHECK(ready.output.at("url").as_string() == "https://127.0.0.1:" + std::to_string(port) + "/");
    CHECK(ready.output.at("insecure_tls") == true);
    auto defaults = worker->call("proxy.effective_defaults", {}, 10s);
    REQUIRE_MESSAGE(defaults.ok(), defaults.error);
    CHECK(defaults.output.at("tls_key_type") == "EC P-256");
    REQUIRE(worker->call("lifecycle.start", {}, 30s).ok());

    auto response = test::http_get_when_up("https://127.0.0.1:" + std::to_string(port) + "/");
    REQUIRE_FALSE(response.empty());
    CHECK(response.at("status").to_number<std::int64_t>() == 200);
    CHECK(response.at("body") == "ok");
    CHECK(test::served_cert_fingerprint(port) == test::cert_fingerprint(cert.cert));
    CHECK(worker->call("lifecycle.stop", {}, 15s).ok());
    CHECK(worker->shutdown(10s).ok());
}

TEST_CASE("caddy plugin: bad knobs, max_connections and a config Caddy refuses are named") {
    test::TempDir dir;
    auto worker = test::proxy_worker("caddy", dir.path());
    REQUIRE(worker->create(R"({"box": ""})", 10s).ok());
    auto configure = [&](const json::object& knobs) {
        return worker->call("proxy.configure", {{"knobs", knobs}}, 30s);
    };

    auto typo = configure({{"listen", {{"prot", 1}}}});
    CHECK(typo.code == STAND_E_INVALID_ARGUMENT);
    CHECK(typo.error == "knobs.listen.prot: unknown key");
    auto unknown = configure({{"gzip", true}});
    CHECK(unknown.code == STAND_E_INVALID_ARGUMENT);
    CHECK(unknown.error == "knobs.gzip: unknown key");
    auto no_key = configure({{"listen", {{"tls", true}}}});
    CHECK(no_key.code == STAND_E_INVALID_ARGUMENT);
    CHECK(no_key.error == "knobs.listen.tls: needs knobs.tls_key {cert_file, key_file}");
    auto ws = configure({{"websocket", "yes"}});
    CHECK(ws.code == STAND_E_INVALID_ARGUMENT);
    CHECK(ws.error == "knobs.websocket: expected true or false");
    auto limit = configure({{"max_connections", 1000}});
    CHECK(limit.code == STAND_E_UNSUPPORTED);
    CHECK(limit.error.starts_with("caddy: knobs.max_connections: Caddy 2.6 has no limit on client connections"));
    CHECK(configure({{"max_connections", nullptr}}).ok());  // unset is what Caddy does anyway

    if (!std::filesystem::exists(kCaddy)) return;
    auto cert = test::make_cert(dir.path());
    auto missing_key = (dir.path() / "missing-key.pem").string();
    json::object knobs{{"listen", {{"tls", true}, {"port", 18443}}},
                       {"tls_key", {{"cert_file", cert.cert}, {"key_file", missing_key}}}};
    auto refused = configure(knobs);
    CHECK(refused.code == STAND_E_INVALID_ARGUMENT);
    CHECK_MESSAGE(refused.error.starts_with("caddy: `caddy validate` rejected "), refused.error);
    CHECK_MESSAGE(refused.error.find("caddy.next.json: ") != std::string::npos, refused.error);
    CHECK_MESSAGE(refused.error.find("missing-key.pem: no such file or directory") != std::string::npos, refused.error);
    auto endpoint = worker->call("proxy.endpoint", {}, 10s);
    CHECK(endpoint.output == json::object{{"scheme", "http"}, {"host", "127.0.0.1"}, {"port", 18082}});
    CHECK(worker->shutdown(10s).ok());
}

TEST_CASE("caddy plugin: config errors name the field") {
    test::TempDir dir;
    auto worker = test::proxy_worker("caddy", dir.path());
    auto created = worker->create(R"({"body": "a\"; evil"})", 10s);
    CHECK(created.code == STAND_E_INVALID_ARGUMENT);
    CHECK(created.error == "config.body: only letters, digits, space, '_', '.', '-' (at most 256)");
}
