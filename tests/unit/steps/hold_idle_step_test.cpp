// hold_idle: `connections` idle connections to the plugin's endpoint (with
// a TLS handshake for https), held for hold_s; how many opened, failed, were
// closed by the server and were still open at the end, and a finding when
// fewer than asked were held. The servers are in-process on 127.0.0.1, port 0.
#include "endpoint_fixtures.hpp"
#include "step_samples.hpp"

#include "../http_test_server.hpp"
#include "../load_test_support.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

using namespace stand::test;
namespace json = boost::json;

namespace {

// A server that keeps every connection open and waits for a request that never comes.
std::unique_ptr<HttpTestServer> patient_server() {
    return std::make_unique<HttpTestServer>([](const TestRequest&) { return reply(200, "ok"); });
}


}  // namespace

STAND_STEP_SAMPLE({"hold_idle", R"({"step": "hold_idle", "connections": 5, "hold_s": 0.3})", "", [](StepBench& b) {
                       std::shared_ptr<HttpTestServer> server = patient_server();
                       serve_endpoint(b, server->port());
                       b.keep.push_back(server);
                   }});

TEST_CASE("hold_idle step: every connection opened and still open after the hold") {
    const auto server = patient_server();
    StepBench b(R"({"step": "hold_idle", "name": "h", "connections": 6, "hold_s": 0.3})");
    serve_endpoint(b, server->port());
    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE(b.failure_of_all() == "");
    CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(300));  // it held them for hold_s
    CHECK(b.port.count(PortCall::endpoint) == 1);
    CHECK(server->connections() == 6);
    CHECK(server->requests().empty());  // idle: not a byte sent
    CHECK(b.metric("h.idle_opened") == 6);
    CHECK(b.metric("h.idle_held") == 6);
    CHECK(b.metric("h.idle_failed") == 0);
    CHECK(b.metric("h.idle_closed") == 0);
    CHECK(*b.metric("h.idle_open_s") >= 0);
    CHECK(*b.metric("h.idle_open_s") < 0.3);
    const json::object& load = b.load_of("h");
    CHECK(load.at("held").to_number<int>() == 6);
    CHECK(load.at("fd_limit").to_number<unsigned>() >= 6 + 64);
    CHECK(load.at("errors").as_array().empty());
    CHECK_FALSE(b.metric("h.box_cpu_pct"));  // no sampler
    CHECK(b.ctx.record.findings.empty());
}

TEST_CASE("hold_idle step: connections the server closes during the hold are not held, and a finding says so") {
    auto server = patient_server();
    StepBench b(R"({"step": "hold_idle", "name": "h", "connections": 4, "hold_s": 0.5})");
    serve_endpoint(b, server->port());
    // The server goes, and every connection it held is closed.
    const auto gone = b.failure_of_all_with_event_after(std::chrono::milliseconds(150), [&server] { server.reset(); });
    REQUIRE(gone.failure == "");
    CHECK(b.metric("h.idle_opened") == 4);
    CHECK(b.metric("h.idle_closed") == 4);
    CHECK(b.metric("h.idle_held") == 0);
    CHECK(b.metric("h.idle_failed") == 0);
    REQUIRE(b.finding_ids() == std::vector<std::string>{"idle-not-held"});
    CHECK(b.finding_message(0).starts_with("0 of 4 idle connections were still open after "));
    CHECK(b.finding_message(0).find(" (0 failed to open, 4 closed by the server); first: closed by the server: ") !=
          std::string::npos);
}

TEST_CASE("hold_idle step: a dead endpoint fails every connection, a failed port call ends the repetition") {
    SUBCASE("nobody listens") {
        StepBench b(R"({"step": "hold_idle", "name": "h", "connections": 3, "hold_s": 0.2})");
        serve_endpoint(b, free_port());
        REQUIRE(b.failure_of_all() == "");
        CHECK(b.metric("h.idle_failed") == 3);
        CHECK(b.metric("h.idle_opened") == 0);
        CHECK(b.metric("h.idle_held") == 0);
        REQUIRE(b.finding_ids() == std::vector<std::string>{"idle-not-held"});
        CHECK(b.finding_message(0).starts_with("0 of 3 idle connections were still open after "));
        CHECK(b.finding_message(0).find(" (3 failed to open, 0 closed by the server); first: connect: ") != std::string::npos);
    }
    SUBCASE("neither endpoint nor readiness") {
        StepBench b(R"({"step": "hold_idle", "name": "h", "connections": 3, "hold_s": 0.2})");
        b.env.through_proxy = true;  // a proxy: it has an endpoint
        b.port.answer(PortCall::endpoint, [](const json::object&) { return reply_error(STAND_E_UNSUPPORTED, "no"); });
        b.port.answer(PortCall::readiness, [](const json::object&) { return reply_error(STAND_E_BAD_STATE, "not started"); });
        CHECK(b.failure_of_all() == "lifecycle.readiness: not started");
        CHECK(b.ctx.record.loads.empty());
    }
    SUBCASE("a readiness URL whose host is a name") {
        StepBench b(R"({"step": "hold_idle", "name": "h", "connections": 3, "hold_s": 0.2})");
        b.env.through_proxy = true;  // a proxy: it has an endpoint
        b.port.answer(PortCall::endpoint, [](const json::object&) { return reply_error(STAND_E_UNSUPPORTED, "no"); });
        b.port.answer(PortCall::readiness, json::value(json::object{{"url", "http://panel.example:8080/ready"}}));
        const std::string failure = b.failure_of_all();
        CHECK(failure.starts_with("step h: endpoint: "));
        CHECK(failure.find("the host must be an IP address or localhost") != std::string::npos);
        CHECK(b.ctx.record.loads.empty());
    }
}

TEST_CASE("hold_idle step: an https endpoint's connections are held after a TLS handshake") {
    const auto cert = TestCertificate::make("stand-test", "IP:127.0.0.1");
    const auto tls = cert.server_context();
    HttpTestServer tls_server([](const TestRequest&) { return reply(200); }, tls.get());
    StepBench b(R"({"step": "hold_idle", "name": "h", "connections": 3, "hold_s": 0.2})");
    serve_endpoint(b, tls_server.port(), "https");
    REQUIRE(b.failure_of_all() == "");
    CHECK(b.metric("h.idle_held") == 3);
    CHECK(b.ctx.record.findings.empty());

    // A plain server reads the ClientHello as a bad request and closes: the handshake fails.
    const auto plain = patient_server();
    StepBench mismatched(R"({"step": "hold_idle", "name": "h", "connections": 2, "hold_s": 0.2})");
    serve_endpoint(mismatched, plain->port(), "https");
    REQUIRE(mismatched.failure_of_all() == "");
    CHECK(mismatched.metric("h.idle_failed") == 2);
    CHECK(mismatched.metric("h.idle_held") == 0);
    REQUIRE(mismatched.finding_ids() == std::vector<std::string>{"idle-not-held"});
    CHECK(mismatched.finding_message(0).find("first: TLS handshake: ") != std::string::npos);
}

TEST_CASE("hold_idle step: the endpoint, from a readiness URL without a port or a malformed proxy.endpoint") {
    StepBench ready(R"({"step": "hold_idle", "name": "h", "connections": 1, "hold_s": 0.2})");
    ready.port.answer(PortCall::readiness, json::value(json::object{{"url", "https://127.0.0.1/ready"}}));
    const auto e = ready.ctx.endpoint(ready.step(0));
    CHECK(e.tls);
    CHECK(e.host == "127.0.0.1");
    CHECK(e.port == 443);  // the scheme's, as the load step reads such a URL
    CHECK(ready.port.count(PortCall::endpoint) == 0);  // not a proxy: no proxy.endpoint call

    StepBench malformed(R"({"step": "hold_idle", "name": "h", "connections": 1, "hold_s": 0.2})");
    malformed.env.through_proxy = true;
    malformed.port.answer(PortCall::endpoint, json::value(json::object{{"host", "127.0.0.1"}}));
    CHECK(malformed.failure_of_all() == R"(proxy.endpoint answered {"host":"127.0.0.1"}, not {scheme, host, port})");
}
