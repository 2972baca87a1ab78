// The envoy plugin through a plugin worker. Envoy is not installed here:
// these tests cover what works without the binary (install/start refuse
// with the path, knobs are read and checked, defaults are reported).
#include "isolation/plugin_worker.hpp"
#include "proxy_test_certificate.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <doctest/doctest.h>

using namespace stand;
using namespace std::chrono_literals;

namespace {

// A worker around envoy.so whose binary is a path that does not exist.
struct EnvoyWorker {
    test::TempDir dir;
    std::string binary = (dir.path() / "no-envoy" / "envoy").string();
    std::unique_ptr<isolation::PluginWorker> worker;

    EnvoyWorker() {
        isolation::WorkerOptions o;
        o.plugin_file = test::build_dir() / "plugins" / "envoy.so";
        o.plugin_id = "envoy";
        o.host.run_dir = dir.path();
        o.stand_binary = test::stand_binary();
        worker = std::make_unique<isolation::PluginWorker>(o);
        auto created = worker->create(R"({"box": "", "binary": ")" + binary + R"("})", 10s);
        REQUIRE_MESSAGE(created.ok(), created.error);
    }
    ~EnvoyWorker() { CHECK(worker->shutdown(10s).ok()); }

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

TEST_CASE("envoy plugin: without the binary, install and start fail naming its path") {
    EnvoyWorker e;
    for (const char* method : {"lifecycle.install", "lifecycle.start"}) {
        auto r = e.worker->call(method, {}, 10s);
        CHECK(r.code == STAND_E_NOT_FOUND);
        CHECK(r.error.find("envoy: " + e.binary + " not found") == 0);
        CHECK(r.error.find("not installable here") != std::string::npos);
    }
    CHECK(e.worker->call("lifecycle.stop", {}, 10s).code == STAND_OK_NOTHING_TO_DO);
    CHECK(e.worker->call("lifecycle.restart", {}, 10s).code == STAND_E_BAD_STATE);
}

TEST_CASE("envoy plugin: a bad knob is refused naming it, and the previous settings stay") {
    EnvoyWorker e;
    REQUIRE(e.configure(kTwoUpstreams).ok());
    auto typo = e.configure({{"upstream_keepalve", false}});
    CHECK(typo.code == STAND_E_INVALID_ARGUMENT);
    CHECK(typo.error == "knobs.upstream_keepalve: unknown key");
    auto host_name = e.configure({{"listen", {{"host", "localhost"}}}, {"upstream_keepalive", false}});
    CHECK(host_name.code == STAND_E_INVALID_ARGUMENT);
    CHECK(host_name.error == "knobs.listen.host: Envoy listens on IP addresses only, not 'localhost'");
    auto out_of_range = e.configure({{"workers", 0}});
    CHECK(out_of_range.code == STAND_E_INVALID_ARGUMENT);
    CHECK(out_of_range.error == "knobs.workers: 0 is out of range [1, 64]");
    auto d = e.defaults();
    CHECK(d.at("upstream_keepalive") == true);  // the refused `false` did not stick
    CHECK(d.at("workers") == 1);
}

TEST_CASE("envoy plugin: effective defaults report the pool, the connection limit and TLS without the binary") {
    EnvoyWorker e;
    auto origin = e.defaults();
    CHECK(origin.at("version") == "");  // no binary to ask
    CHECK_FALSE(origin.contains("upstream_keepalive"));  // origin mode: no upstreams
    CHECK(origin.at("admin") == "off (no admin block)");

    REQUIRE(e.configure(kTwoUpstreams).ok());
    auto d = e.defaults();
    CHECK(d.at("upstream_keepalive") == true);
    CHECK(d.at("upstream_keepalive_source") == "envoy default");
    CHECK(d.at("upstream_pool").as_string().starts_with("per-worker HTTP/1.1 connection pool"));
    CHECK(d.at("upstream_circuit_breakers").at("max_connections") == 1024);
    CHECK(d.at("max_connections") == "unlimited (Envoy's default: no global downstream limit)");
    CHECK(d.at("websocket").as_string().starts_with("refused"));

    REQUIRE(e.configure({{"upstream_keepalive", false}, {"max_connections", 2000}, {"workers", 2},
                         {"websocket", true}})
                .ok());
    d = e.defaults();
    CHECK(d.at("upstream_keepalive") == false);
    CHECK(d.at("upstream_keepalive_source") == "knob");
    CHECK(d.at("upstream_pool").as_string().starts_with("max_requests_per_connection 1"));
    CHECK(d.at("max_connections") == 2000);
    CHECK(d.at("workers_flag") == "--concurrency 2");
    CHECK(d.at("websocket").as_string().starts_with("upgrade_configs websocket"));

    REQUIRE(e.configure({{"upstream_keepalive", nullptr}}).ok());  // back to Envoy's default
    CHECK(e.defaults().at("upstream_keepalive_source") == "envoy default");

    auto cert = test::make_p256_certificate(e.dir.path() / "certs");
    REQUIRE(e.configure({{"listen", {{"tls", true}}},
                         {"tls_key", {{"cert_file", cert.cert_file.string()}, {"key_file", cert.key_file.string()}}}})
                .ok());
    d = e.defaults();
    CHECK(d.at("tls_key_type") == "EC P-256");
    auto endpoint = e.worker->call("proxy.endpoint", {}, 10s);
    CHECK(endpoint.output == boost::json::parse(
                                 R"({"scheme":"https","host":"127.0.0.1","port":18083,"alpn":["h2","http/1.1"]})"));
    auto ready = e.worker->call("lifecycle.readiness", {}, 10s);
    CHECK(ready.output.at("url") == "https://127.0.0.1:18083/");
    CHECK(ready.output.at("insecure_tls") == true);

    auto facts = e.worker->call("lifecycle.facts", {}, 10s);
    REQUIRE(facts.ok());
    CHECK(facts.output.at("binary").as_string() == e.binary);
    CHECK_FALSE(facts.output.as_object().contains("versions"));
    CHECK(facts.output.at("defaults").at("tls_key_type") == "EC P-256");
}
