// The traefik plugin through a plugin worker. Traefik is not installed
// here: these tests cover what works without the binary (install/start
// refuse with the path, knobs are read and checked, defaults are reported).
#include "isolation/plugin_worker.hpp"
#include "proxy_test_certificate.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <doctest/doctest.h>

using namespace stand;
using namespace std::chrono_literals;

namespace {

// A worker around traefik.so whose binary is a path that does not exist.
struct TraefikWorker {
    test::TempDir dir;
    std::string binary = (dir.path() / "no-traefik" / "traefik").string();
    std::unique_ptr<isolation::PluginWorker> worker;

    TraefikWorker() {
        isolation::WorkerOptions o;
        o.plugin_file = test::build_dir() / "plugins" / "traefik.so";
        o.plugin_id = "traefik";
        o.host.run_dir = dir.path();
        o.stand_binary = test::stand_binary();
        worker = std::make_unique<isolation::PluginWorker>(o);
        auto created = worker->create(R"({"box": "", "binary": ")" + binary + R"("})", 10s);
        REQUIRE_MESSAGE(created.ok(), created.error);
    }
    ~TraefikWorker() { CHECK(worker->shutdown(10s).ok()); }

    isolation::WorkerReply configure(const boost::json::object& knobs) {
        return worker->call("proxy.configure", {{"knobs", knobs}}, 10s);
    }
    boost::json::object defaults() {
        auto d = worker->call("proxy.effective_defaults", {}, 10s);
        REQUIRE_MESSAGE(d.ok(), d.error);
        return d.output.as_object();
    }
};

const boost::json::object kTwoUpstreams{
    {"upstreams", boost::json::array{{{"host", "127.0.0.1"}, {"port", 9001}}, {{"host", "127.0.0.1"}, {"port", 9002}}}}};

}  // namespace

TEST_CASE("traefik plugin: without the binary, install and start fail naming its path") {
    TraefikWorker t;
    REQUIRE(t.configure(kTwoUpstreams).ok());
    for (const char* method : {"lifecycle.install", "lifecycle.start"}) {
        auto r = t.worker->call(method, {}, 10s);
        CHECK(r.code == STAND_E_NOT_FOUND);
        CHECK(r.error.find("traefik: " + t.binary + " not found") == 0);
        CHECK(r.error.find("not installable here") != std::string::npos);
    }
    CHECK(t.worker->call("lifecycle.stop", {}, 10s).code == STAND_OK_NOTHING_TO_DO);
}

TEST_CASE("traefik plugin: origin mode and max_connections are unsupported, bad knobs named, settings kept") {
    TraefikWorker t;
    auto origin = t.configure({{"workers", 2}});
    CHECK(origin.code == STAND_E_UNSUPPORTED);
    CHECK(origin.error.find("traefik: origin mode (no knobs.upstreams) is not supported") == 0);

    REQUIRE(t.configure(kTwoUpstreams).ok());
    auto limit = t.configure({{"max_connections", 1000}});
    CHECK(limit.code == STAND_E_UNSUPPORTED);
    CHECK(limit.error.find("traefik: knobs.max_connections is not supported") == 0);
    CHECK(t.configure({{"max_connections", nullptr}}).ok());  // the proxy's default: fine

    auto typo = t.configure({{"listen", {{"prot", 1}}}});
    CHECK(typo.code == STAND_E_INVALID_ARGUMENT);
    CHECK(typo.error == "knobs.listen.prot: unknown key");
    auto no_key = t.configure({{"listen", {{"tls", true}}}});
    CHECK(no_key.code == STAND_E_INVALID_ARGUMENT);
    CHECK(no_key.error == "knobs.listen.tls: needs knobs.tls_key {cert_file, key_file}");
    auto d = t.defaults();
    CHECK(d.at("workers") == 1);  // the refused origin-mode call changed nothing
    CHECK(d.at("upstream_keepalive") == true);
    CHECK_FALSE(d.contains("tls_key_type"));
}

TEST_CASE("traefik plugin: effective defaults report the pool, GOMAXPROCS and TLS without the binary") {
    TraefikWorker t;
    REQUIRE(t.configure(kTwoUpstreams).ok());
    auto d = t.defaults();
    CHECK(d.at("version") == "");
    CHECK(d.at("upstream_keepalive") == true);
    CHECK(d.at("upstream_keepalive_source") == "traefik default");
    CHECK(d.at("upstream_pool") == boost::json::object{{"maxIdleConnsPerHost", 200}});
    CHECK(d.at("max_connections") == "unlimited (Traefik has no entry-point connection limit)");
    CHECK(d.at("websocket").as_string().starts_with("passed through anyway"));

    REQUIRE(t.configure({{"upstream_keepalive", false}, {"workers", 4}, {"websocket", true}}).ok());
    d = t.defaults();
    CHECK(d.at("upstream_keepalive") == false);
    CHECK(d.at("upstream_keepalive_source") == "knob");
    CHECK(d.at("upstream_pool").as_string().starts_with("maxIdleConnsPerHost -1"));
    CHECK(d.at("workers_env") == "GOMAXPROCS=4");

    auto cert = test::make_p256_certificate(t.dir.path() / "certs");
    REQUIRE(t.configure({{"listen", {{"tls", true}, {"port", 18443}}},
                         {"tls_key", {{"cert_file", cert.cert_file.string()}, {"key_file", cert.key_file.string()}}}})
                .ok());
    CHECK(t.defaults().at("tls_key_type") == "EC P-256");
    auto endpoint = t.worker->call("proxy.endpoint", {}, 10s);
    CHECK(endpoint.output == boost::json::parse(
                                 R"({"scheme":"https","host":"127.0.0.1","port":18443,"alpn":["h2","http/1.1"]})"));
    auto facts = t.worker->call("lifecycle.facts", {}, 10s);
    REQUIRE(facts.ok());
    CHECK(facts.output.at("binary").as_string() == t.binary);
    CHECK(facts.output.at("dynamic_config").as_string().ends_with("traefik/dynamic.yml"));
}
