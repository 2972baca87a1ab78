// The haproxy plugin: its config text for each knob, `haproxy -c` on every
// variant, and the plugin driven through a plugin worker against the real
// haproxy.
#include "haproxy_check_output.hpp"
#include "haproxy_config.hpp"
#include "proxy_plugin_support.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string_view>

using namespace stand;
using namespace std::chrono_literals;
namespace json = boost::json;
using stand_haproxy::HaproxySettings;
using stand_haproxy::render_haproxy_cfg;

namespace {

const char* const kHaproxy = "/usr/sbin/haproxy";

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

HaproxySettings origin() {
    HaproxySettings s;
    s.knobs.listen_port = 18081;
    return s;
}

HaproxySettings proxying(std::optional<bool> keepalive) {
    HaproxySettings s = origin();
    s.knobs.upstreams = {{"127.0.0.1", 9000}, {"127.0.0.2", 9001}};
    s.knobs.upstream_keepalive = keepalive;
    return s;
}

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

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

TEST_CASE("haproxy config: `haproxy -c` accepts every rendered variant without a warning") {
    if (!std::filesystem::exists(kHaproxy)) {
        MESSAGE("haproxy is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir dir;
    auto cert = test::make_cert(dir.path());
    std::ofstream(dir.path() / "tls.pem") << read_file(cert.cert) << read_file(cert.key);
    auto tls = [&](HaproxySettings s) {
        s.knobs.tls = true;
        s.tls_pem = (dir.path() / "tls.pem").string();
        return s;
    };
    auto with = [](HaproxySettings s, auto change) {
        change(s.knobs);
        return s;
    };
    using Knobs = stand_proxy_kit::ProxyKnobs;
    const std::pair<const char*, HaproxySettings> variants[] = {
        {"origin", origin()},
        {"pool unset", proxying(std::nullopt)},
        {"pool on", proxying(true)},
        {"pool off", proxying(false)},
        {"websocket", with(proxying(std::nullopt), [](Knobs& k) { k.websocket = true; })},
        {"max_connections", with(proxying(true), [](Knobs& k) { k.max_connections = 20000; })},
        {"IPv6 listener and upstream", with(proxying(true), [](Knobs& k) {
             k.listen_host = "::1";
             k.upstreams = {{"::1", 9000}};
         })},
        {"tls origin", tls(origin())},
        {"tls, pool off, websocket, 4 threads, maxconn",
         with(tls(proxying(false)), [](Knobs& k) {
             k.websocket = true;
             k.workers = 4;
             k.max_connections = 1000;
         })}};
    for (const auto& [name, settings] : variants) {
        CAPTURE(name);
        const auto file = dir.path() / "haproxy.cfg";
        std::ofstream(file) << render_haproxy_cfg(settings);
        std::string out;
        CHECK_MESSAGE(test::run_shell(std::string(kHaproxy) + " -c -f " + file.string(), out) == 0, out);
        CHECK_MESSAGE(!contains(out, "[WARNING]"), out);
    }
}

TEST_CASE("haproxy plugin: install, start, serve, stop and wipe the real haproxy") {
    if (!std::filesystem::exists(kHaproxy)) {
        MESSAGE("haproxy is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir dir;
    auto worker = test::proxy_worker("haproxy", dir.path());
    auto port = test::free_port();
    auto created = worker->create(R"({"box": "", "port": )" + std::to_string(port) + R"(, "body": "hello"})", 10s);
    REQUIRE_MESSAGE(created.ok(), created.error);

    auto installed = worker->call("lifecycle.install", {}, 30s);
    REQUIRE_MESSAGE(installed.ok(), installed.error);
    auto facts = worker->call("lifecycle.facts", {}, 10s);
    REQUIRE(facts.ok());
    CHECK(facts.output.at("versions").at("haproxy").as_string().starts_with("2."));
    CHECK(facts.output.at("binary") == kHaproxy);
    const std::string config(facts.output.at("config").as_string());
    CHECK(config.ends_with("/haproxy/haproxy.cfg"));
    CHECK(contains(read_file(config), "  http-request return status 200 content-type text/plain string \"hello\"\n"));
    const auto& defaults = facts.output.at("defaults");
    CHECK(defaults.at("version").as_string().starts_with("HAProxy version 2."));
    CHECK(defaults.at("workers") == 1);
    CHECK(defaults.at("max_connections_source") == "haproxy default");
    CHECK(defaults.at("upstream_keepalive") == true);
    CHECK(defaults.at("upstream_keepalive_source") == "haproxy default");
    CHECK(defaults.at("upstream_pool").at("http_reuse") == "safe");
    CHECK(defaults.at("websocket").as_string().starts_with("upgrades pass (haproxy default)"));
    CHECK_FALSE(defaults.as_object().contains("tls_key_type"));

    auto ready = worker->call("lifecycle.readiness", {}, 10s);
    REQUIRE(ready.ok());
    std::string url(ready.output.at("url").as_string());
    CHECK(url == "http://127.0.0.1:" + std::to_string(port) + "/");
    CHECK_FALSE(ready.output.as_object().contains("insecure_tls"));

    REQUIRE(worker->call("lifecycle.start", {}, 10s).ok());
    auto response = test::http_get_when_up(url);
    REQUIRE_FALSE(response.empty());
    CHECK(response.at("status").to_number<std::int64_t>() == 200);
    CHECK(response.at("body") == "hello");
    CHECK(worker->call("lifecycle.start", {}, 10s).code == STAND_E_BAD_STATE);

    CHECK(worker->call("lifecycle.wipe", {}, 10s).code == STAND_E_BAD_STATE);
    REQUIRE(worker->call("lifecycle.stop", {}, 15s).ok());
    CHECK_THROWS(test::http_get(url));  // nothing listens any more
    CHECK(worker->call("lifecycle.stop", {}, 15s).code == STAND_OK_NOTHING_TO_DO);
    REQUIRE(worker->call("lifecycle.wipe", {}, 10s).ok());
    CHECK_FALSE(std::filesystem::exists(std::filesystem::path(config).parent_path()));
    CHECK(worker->shutdown(10s).ok());
}

TEST_CASE("haproxy plugin: a TLS listener serves the given P-256 certificate and proxies to an origin") {
    if (!std::filesystem::exists(kHaproxy)) {
        MESSAGE("haproxy is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir origin_dir, proxy_dir, certs;
    auto cert = test::make_cert(certs.path());
    auto origin = test::proxy_worker("haproxy", origin_dir.path());
    auto origin_port = test::free_port();
    REQUIRE(origin->create(R"({"box": "", "port": )" + std::to_string(origin_port) + R"(, "body": "from origin"})", 10s)
                .ok());
    REQUIRE(origin->call("lifecycle.install", {}, 30s).ok());
    REQUIRE(origin->call("lifecycle.start", {}, 10s).ok());

    auto proxy = test::proxy_worker("haproxy", proxy_dir.path());
    REQUIRE(proxy->create(R"({"box": ""})", 10s).ok());
    REQUIRE(proxy->call("lifecycle.install", {}, 30s).ok());
    auto proxy_port = test::free_port();
    json::object knobs{{"listen", {{"host", "127.0.0.1"}, {"port", proxy_port}, {"tls", true}}},
                       {"tls_key", {{"cert_file", cert.cert}, {"key_file", cert.key}}},
                       {"upstreams", json::array{{{"host", "127.0.0.1"}, {"port", origin_port}}}},
                       {"upstream_keepalive", false},
                       {"websocket", true},
                       {"workers", 2}};
    auto configured = proxy->call("proxy.configure", {{"knobs", knobs}}, 30s);
    REQUIRE_MESSAGE(configured.ok(), configured.error);

    auto endpoint = proxy->call("proxy.endpoint", {}, 10s);
    REQUIRE(endpoint.ok());
    CHECK(endpoint.output == json::object{{"scheme", "https"}, {"host", "127.0.0.1"}, {"port", proxy_port},
                                          {"alpn", json::array{"h2", "http/1.1"}}});
    auto ready = proxy->call("lifecycle.readiness", {}, 10s);
    REQUIRE(ready.ok());
    CHECK(ready.output.at("url").as_string() == "https://127.0.0.1:" + std::to_string(proxy_port) + "/");
    CHECK(ready.output.at("insecure_tls") == true);
    auto defaults = proxy->call("proxy.effective_defaults", {}, 10s);
    REQUIRE_MESSAGE(defaults.ok(), defaults.error);
    CHECK(defaults.output.at("tls_key_type") == "EC P-256");
    CHECK(defaults.output.at("workers") == 2);
    CHECK(defaults.output.at("upstream_keepalive") == false);
    CHECK(defaults.output.at("upstream_keepalive_source") == "knob");
    CHECK(defaults.output.at("upstream_pool").as_string().starts_with("none: option http-server-close"));
    CHECK(defaults.output.at("websocket") == "upgrades pass; an idle tunnel lasts up to timeout tunnel 1h");
    auto pem = proxy_dir.path() / "data" / "haproxy" / "haproxy" / "tls.pem";
    REQUIRE(std::filesystem::exists(pem));
    CHECK((std::filesystem::status(pem).permissions() & std::filesystem::perms::all) ==
          (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));

    REQUIRE(proxy->call("lifecycle.start", {}, 10s).ok());
    auto response = test::http_get_when_up("https://127.0.0.1:" + std::to_string(proxy_port) + "/");
    REQUIRE_FALSE(response.empty());
    CHECK(response.at("status").to_number<std::int64_t>() == 200);
    CHECK(response.at("body") == "from origin");
    CHECK(test::served_cert_fingerprint(proxy_port) == test::cert_fingerprint(cert.cert));
    CHECK(proxy->call("lifecycle.stop", {}, 15s).ok());
    CHECK(origin->call("lifecycle.stop", {}, 15s).ok());
    CHECK(proxy->shutdown(10s).ok());
    CHECK(origin->shutdown(10s).ok());
}

TEST_CASE("haproxy plugin: pool and max_connections knobs reach haproxy.cfg and the defaults") {
    if (!std::filesystem::exists(kHaproxy)) {
        MESSAGE("haproxy is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir dir;
    auto worker = test::proxy_worker("haproxy", dir.path());
    REQUIRE(worker->create(R"({"box": ""})", 10s).ok());
    REQUIRE(worker->call("lifecycle.install", {}, 30s).ok());
    const auto cfg = dir.path() / "data" / "haproxy" / "haproxy" / "haproxy.cfg";
    auto configure = [&](const json::object& knobs) {
        auto r = worker->call("proxy.configure", {{"knobs", knobs}}, 30s);
        REQUIRE_MESSAGE(r.ok(), r.error);
        auto d = worker->call("proxy.effective_defaults", {}, 10s);
        REQUIRE(d.ok());
        return d.output.as_object();
    };

    auto on = configure({{"upstreams", json::array{{{"host", "127.0.0.1"}, {"port", 9000}}}},
                         {"upstream_keepalive", true},
                         {"max_connections", 20000}});
    CHECK(on.at("upstream_keepalive") == true);
    CHECK(on.at("upstream_keepalive_source") == "knob");
    CHECK(on.at("max_connections") == 20000);
    CHECK(on.at("max_connections_source") == "knob");
    CHECK(contains(read_file(cfg), "  maxconn 20000\n"));
    CHECK(contains(read_file(cfg), "  http-reuse safe\n"));

    auto back = configure({{"upstream_keepalive", nullptr}, {"max_connections", nullptr}});
    CHECK(back.at("upstream_keepalive") == true);
    CHECK(back.at("upstream_keepalive_source") == "haproxy default");
    CHECK(back.at("max_connections_source") == "haproxy default");
    CHECK(contains(back.at("max_connections").as_string(), "ulimit -n"));
    CHECK_FALSE(contains(read_file(cfg), "maxconn"));
    CHECK_FALSE(contains(read_file(cfg), "  http-reuse"));
    CHECK(worker->shutdown(10s).ok());
}

TEST_CASE("haproxy plugin: knob and config errors name the knob, haproxy's rejection names the line") {
    test::TempDir dir;
    auto worker = test::proxy_worker("haproxy", dir.path());
    auto bad_body = worker->create(R"({"body": "a\"; evil"})", 10s);
    CHECK(bad_body.code == STAND_E_INVALID_ARGUMENT);
    CHECK(bad_body.error == "config.body: only letters, digits, space, '_', '.', '-' (at most 256)");

    worker = test::proxy_worker("haproxy", dir.path());
    REQUIRE(worker->create(R"({"box": ""})", 10s).ok());
    auto configure = [&](const json::object& knobs) {
        return worker->call("proxy.configure", {{"knobs", knobs}}, 30s);
    };
    auto typo = configure({{"listen", {{"prot", 1}}}});
    CHECK(typo.code == STAND_E_INVALID_ARGUMENT);
    CHECK(typo.error == "knobs.listen.prot: unknown key");
    auto unknown = configure({{"buffering", true}});
    CHECK(unknown.code == STAND_E_INVALID_ARGUMENT);
    CHECK(unknown.error == "knobs.buffering: unknown key");
    auto no_key = configure({{"listen", {{"tls", true}}}});
    CHECK(no_key.code == STAND_E_INVALID_ARGUMENT);
    CHECK(no_key.error == "knobs.listen.tls: needs knobs.tls_key {cert_file, key_file}");
    auto injected = configure({{"listen", {{"host", "127.0.0.1\n  frobnicate"}}}});
    CHECK(injected.code == STAND_E_INVALID_ARGUMENT);
    CHECK(injected.error == "knobs.listen.host: expected a host name or IP address (letters, digits, '.', '-', ':')");
    auto no_port = configure({{"upstreams", json::array{{{"host", "127.0.0.1"}}}}});
    CHECK(no_port.error == "knobs.upstreams[0].port: required (1-65535)");
    auto zero_conns = configure({{"max_connections", 0}});
    CHECK(zero_conns.error == "knobs.max_connections: 0 is out of range [1, 10000000]");
    auto not_a_cert = configure({{"listen", {{"tls", true}}},
                                 {"tls_key", {{"cert_file", "/etc/hostname"}, {"key_file", "/etc/hostname"}}}});
    CHECK(not_a_cert.code == STAND_E_INVALID_ARGUMENT);
    CHECK(not_a_cert.error == "haproxy: knobs.tls_key.cert_file: /etc/hostname is not a PEM certificate");

    if (!std::filesystem::exists(kHaproxy)) return;
    auto unresolvable = configure({{"listen", {{"host", "no-such-host.invalid"}}}});
    CHECK(unresolvable.code == STAND_E_INVALID_ARGUMENT);
    CHECK_MESSAGE(unresolvable.error.starts_with("haproxy: `haproxy -c` rejected "), unresolvable.error);
    CHECK_MESSAGE(contains(unresolvable.error, "haproxy.next.cfg:"), unresolvable.error);
    auto endpoint = worker->call("proxy.endpoint", {}, 10s);
    CHECK(endpoint.output.at("host") == "127.0.0.1");  // a rejected configure changes nothing
    CHECK(worker->shutdown(10s).ok());
}
