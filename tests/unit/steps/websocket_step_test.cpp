// websocket: `connections` clients upgrade at the plugin's endpoint (ws://
// only) and echo `message_bytes` in a loop for the duration; the upgrades,
// the sessions dropped, the echoes' rate and round trip, the backend's
// sessions when there is one, and a finding when any failed. The echo
// server is the host's own backend (framework/src/backend), in-process on
// 127.0.0.1, port 0.
#include "endpoint_fixtures.hpp"
#include "step_samples.hpp"

#include "../http_test_server.hpp"
#include "../load_test_support.hpp"
#include "backend/backend_server.hpp"
#include "target/backend.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace stand::test;
namespace json = boost::json;

namespace {

std::uint64_t number(const json::object& o, const char* key) { return o.at(key).to_number<std::uint64_t>(); }

}  // namespace

STAND_STEP_SAMPLE({"websocket", R"({"step": "websocket", "duration_s": 0.3, "connections": 4, "message_bytes": 16})",
                   "", [](StepBench& b) {
                       auto server = std::make_shared<stand::backend::BackendServer>(stand::backend::BackendOptions{});
                       serve_endpoint(b, port_of(*server));
                       b.keep.push_back(server);
                   }});

TEST_CASE("websocket step: every connection upgrades and echoes, counted by the client and the backend") {
    stand::backend::BackendServer server{stand::backend::BackendOptions{}};
    InProcessBackend backend(server);
    StepBench b(R"({"step": "websocket", "name": "ws", "duration_s": 0.3, "connections": 3, "message_bytes": 100})");
    b.env.backend = &backend;
    serve_endpoint(b, port_of(server));
    REQUIRE(b.failure_of_all() == "");
    CHECK(b.port.count(PortCall::endpoint) == 1);

    const json::object& load = b.load_of("ws");
    const std::uint64_t echoes = number(load, "echoes");
    CHECK(echoes > 10);
    CHECK(number(load, "mismatched") == 0);
    CHECK(load.at("errors").as_array().empty());
    CHECK(b.metric("ws.ws_connected") == 3);
    CHECK(b.metric("ws.ws_failed") == 0);
    CHECK(b.metric("ws.ws_dropped") == 0);
    CHECK(b.metric("ws.backend_ws_sessions") == 3);  // the backend accepted each upgrade
    CHECK(server.stats().ws_messages >= echoes);     // and echoed at least every message the client got back
    const double elapsed = load.at("elapsed_s").to_number<double>();
    REQUIRE(elapsed >= 0.3);
    CHECK(*b.metric("ws.ws_echoes_per_s") == doctest::Approx(static_cast<double>(echoes) / elapsed));
    CHECK(*b.metric("ws.ws_rtt_p50_ms") > 0);
    CHECK(*b.metric("ws.ws_rtt_p50_ms") <= *b.metric("ws.ws_rtt_p99_ms"));
    CHECK(*b.metric("ws.ws_rtt_p99_ms") < 1000);
    CHECK(*b.metric("ws.client_cpu_us_per_echo") > 0);
    CHECK_FALSE(b.metric("ws.box_cpu_pct"));  // no sampler
    CHECK(b.ctx.record.findings.empty());
}

TEST_CASE("websocket step: upgrades refused or never answered are failures, and a finding names the first") {
    SUBCASE("a path the server does not upgrade at") {
        stand::backend::BackendServer server{stand::backend::BackendOptions{}};
        StepBench b(R"({"step": "websocket", "name": "ws", "duration_s": 0.3, "connections": 2, "path": "/plain"})");
        serve_endpoint(b, port_of(server));
        REQUIRE(b.failure_of_all() == "");  // measured, not a crash
        CHECK(b.metric("ws.ws_connected") == 0);
        CHECK(b.metric("ws.ws_failed") == 2);
        CHECK(b.metric("ws.ws_echoes_per_s") == 0);
        CHECK_FALSE(b.metric("ws.ws_rtt_p50_ms"));
        CHECK_FALSE(b.metric("ws.client_cpu_us_per_echo"));
        CHECK(server.stats().ws_sessions == 0);
        REQUIRE(b.finding_ids() == std::vector<std::string>{"websocket-failures"});
        CHECK(b.finding_message(0).starts_with(
            "2 of 2 upgrades failed, 0 sessions dropped, 0 echoes differed; first: upgrade: "));
    }
    SUBCASE("nobody listens") {
        StepBench b(R"({"step": "websocket", "name": "ws", "duration_s": 0.3, "connections": 3})");
        serve_endpoint(b, free_port());
        REQUIRE(b.failure_of_all() == "");
        CHECK(b.metric("ws.ws_failed") == 3);
        CHECK(b.metric("ws.ws_connected") == 0);
        REQUIRE(b.finding_ids() == std::vector<std::string>{"websocket-failures"});
        CHECK(b.finding_message(0).starts_with("3 of 3 upgrades failed, 0 sessions dropped, 0 echoes differed; first: connect: "));
    }
}

TEST_CASE("websocket step: sessions the server drops before the end are counted as dropped") {
    auto server = std::make_unique<stand::backend::BackendServer>(stand::backend::BackendOptions{});
    StepBench b(R"({"step": "websocket", "name": "ws", "duration_s": 0.6, "connections": 2})");
    serve_endpoint(b, port_of(*server));
    // The server goes, its connections closed mid-session.
    const auto gone = b.failure_of_all_with_event_after(std::chrono::milliseconds(150), [&server] { server.reset(); });
    REQUIRE(gone.failure == "");
    CHECK(b.metric("ws.ws_connected") == 2);
    CHECK(b.metric("ws.ws_dropped") == 2);
    CHECK(b.metric("ws.ws_failed") == 0);
    CHECK(number(b.load_of("ws"), "echoes") > 0);  // it echoed before it went
    REQUIRE(b.finding_ids() == std::vector<std::string>{"websocket-failures"});
    CHECK(b.finding_message(0).starts_with("0 of 2 upgrades failed, 2 sessions dropped, 0 echoes differed; first: read: "));
}

TEST_CASE("websocket step: a TLS endpoint, a failed port call and an unusable endpoint end the repetition") {
    SUBCASE("https") {
        StepBench b(R"({"step": "websocket", "name": "ws", "duration_s": 0.3})");
        serve_endpoint(b, 443, "https");
        CHECK(b.failure_of_all() == R"(step ws: the websocket step speaks ws:// only; configure tls "off" before it)");
        CHECK(b.ctx.record.loads.empty());
    }
    SUBCASE("neither endpoint nor readiness") {
        StepBench b(R"({"step": "websocket", "name": "ws", "duration_s": 0.3})");
        b.env.through_proxy = true;  // a proxy: it has an endpoint
        b.port.answer(PortCall::endpoint, [](const json::object&) {
            return reply_failure(stand::isolation::WorkerReply::Failure::kHung, "no answer in 30 s");
        });
        b.port.answer(PortCall::readiness, [](const json::object&) {
            return reply_failure(stand::isolation::WorkerReply::Failure::kHung, "no answer in 30 s");
        });
        CHECK(b.failure_of_all() == "lifecycle.readiness: no answer in 30 s");
    }
    SUBCASE("the readiness URL's host and port when there is no proxy.endpoint") {
        stand::backend::BackendServer server{stand::backend::BackendOptions{}};
        StepBench b(R"({"step": "websocket", "name": "ws", "duration_s": 0.3, "connections": 1})");
        b.env.through_proxy = true;  // a proxy: it has an endpoint
        b.port.answer(PortCall::endpoint, [](const json::object&) { return reply_error(STAND_E_UNSUPPORTED, "no"); });
        b.port.answer(PortCall::readiness,
                      json::value(json::object{{"url", "http://127.0.0.1:" + std::to_string(port_of(server)) + "/ready"}}));
        REQUIRE(b.failure_of_all() == "");
        CHECK(b.metric("ws.ws_connected") == 1);
        CHECK(server.stats().ws_sessions == 1);
    }
    SUBCASE("a host name the step cannot connect to") {
        StepBench b(R"({"step": "websocket", "name": "ws", "duration_s": 0.3})");
        b.env.through_proxy = true;  // a proxy: it has an endpoint
        b.port.answer(PortCall::endpoint,
                      json::value(json::object{{"scheme", "http"}, {"host", "proxy.example"}, {"port", 80}}));
        CHECK(b.failure_of_all().starts_with("step ws: endpoint: "));
    }
}

TEST_CASE("websocket step: Ctrl-C while the server never answers the upgrade ends it within a second") {
    HttpTestServer silent([](const TestRequest&) {
        TestReply r;
        r.action = TestReply::Action::hang;
        return r;
    });
    StepBench b(R"({"step": "websocket", "name": "ws", "duration_s": 10, "connections": 2})");
    serve_endpoint(b, silent.port());
    const auto ended = b.failure_of_all_interrupted_after(std::chrono::milliseconds(200));
    // The step ends early, and the repetition is then recorded as interrupted by its runner.
    CHECK((ended.failure.empty() || ended.failure == "interrupted"));
    CHECK(ended.took < std::chrono::milliseconds(1200));
    CHECK(b.ctx.record.loads.contains("ws"));
}
