// wait_ready: polls the plugin's readiness request (lifecycle.readiness) every
// interval_ms until it succeeds, timed from the last start step (<step>.seconds);
// each round asks the worker whether a process of the system ended.
#include "endpoint_fixtures.hpp"
#include "step_samples.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <memory>

using namespace stand::test;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

STAND_STEP_SAMPLE({"wait_ready", R"({"step": "start"}, {"step": "wait_ready", "interval_ms": 10})", "", system_ready});

TEST_CASE("wait_ready step: timed from the last start step, not from its own beginning") {
    StepBench b(R"({"step": "wait_ready", "name": "wr"})");
    const auto server = ready_server(b, [](std::size_t) { return 200u; });
    b.ctx.state.last_start = Clock::now() - std::chrono::milliseconds(300);
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.metric("wr.seconds").has_value());
    CHECK(*b.metric("wr.seconds") >= 0.3);
    CHECK(*b.metric("wr.seconds") < 1.3);
    REQUIRE(server->requests().size() == 1);
    CHECK(server->requests()[0].target() == "/ready");
    CHECK(server->requests()[0].method() == boost::beast::http::verb::get);
    // The readiness request is asked for within the step's timeout (180 s by default).
    REQUIRE(b.port.count(PortCall::readiness) == 1);
    CHECK(b.port.calls()[0].call == PortCall::readiness);
    CHECK(b.port.calls()[0].timeout == std::chrono::minutes(3));
    CHECK(b.ctx.record.findings.empty());
}

TEST_CASE("wait_ready step: polls every interval_ms until the request succeeds, watching for ended processes") {
    StepBench b(R"({"step": "start"}, {"step": "wait_ready", "name": "wr", "interval_ms": 20})");
    const auto server = ready_server(b, [](std::size_t n) { return n <= 3 ? 503u : 200u; });
    CHECK(b.failure_of_all() == "");
    CHECK(server->requests().size() == 4);
    // One look at the ended processes per round.
    CHECK(b.port.count(PortCall::ended_processes) == 4);
    // Three failed rounds 20 ms apart came before the one that succeeded.
    REQUIRE(b.metric("wr.seconds").has_value());
    CHECK(*b.metric("wr.seconds") >= 0.06);
    CHECK(*b.metric("wr.seconds") < 1.0);
}

TEST_CASE("wait_ready step: the plugin's request as it describes it: method, headers, expected status") {
    StepBench b(R"({"step": "wait_ready", "name": "wr", "interval_ms": 10})");
    const auto server = std::make_shared<HttpTestServer>([](const TestRequest&) { return reply(401); });
    b.keep.push_back(server);
    b.port.answer(PortCall::readiness, json::value(json::object{{"url", server->url("/login")},
                                                               {"method", "POST"},
                                                               {"headers", {{"X-Panel-Key", "k1"}}},
                                                               {"expect_status", {401}}}));
    b.port.answer(PortCall::ended_processes, json::value(json::array{}));
    CHECK(b.failure_of_all() == "");
    REQUIRE(server->requests().size() == 1);
    CHECK(server->requests()[0].method() == boost::beast::http::verb::post);
    CHECK(server->requests()[0].target() == "/login");
    CHECK(server->requests()[0]["X-Panel-Key"] == "k1");
    CHECK(b.metric("wr.seconds") > 0);
}

TEST_CASE("wait_ready step: a system never ready fails at the step's timeout with its last answer") {
    StepBench b(R"({"step": "wait_ready", "interval_ms": 20, "timeout_s": 0.3})");
    const auto server = ready_server(b, [](std::size_t) { return 503u; });
    const auto t0 = Clock::now();
    const std::string failure = b.failure_of_all();
    CHECK(Clock::now() - t0 < std::chrono::milliseconds(900));
    CHECK(failure.starts_with("not ready: readiness " + server->url("/ready") + " did not succeed in "));
    CHECK(failure.ends_with(" rounds; last: HTTP 503"));
    CHECK(server->requests().size() >= 5);
    CHECK_FALSE(b.metric("wait_ready1.seconds").has_value());
}

TEST_CASE("wait_ready step: a process of the system that ended stops the wait at once") {
    StepBench b(R"({"step": "wait_ready", "interval_ms": 10})");
    const auto server = ready_server(b, [](std::size_t) { return 503u; });
    const auto log = b.temp.path() / "panel.log";
    std::ofstream(log) << "listen tcp :2053: bind: address already in use\n";
    b.port.answer(PortCall::ended_processes,
                  json::value(json::array{json::object{
                      {"name", "python3"}, {"pid", 42}, {"signaled", false}, {"code", 1}, {"output", log.string()}}}));
    const std::string failure = b.failure_of_all();
    CHECK(failure.starts_with("not ready: a process of the system ended "));
    CHECK(failure.find("python3 (pid 42) exited with status 1") != std::string::npos);
    CHECK(failure.find("bind: address already in use") != std::string::npos);
    // Seen before the first request.
    CHECK(server->requests().empty());
}

TEST_CASE("wait_ready step: a failed or malformed readiness answer ends the repetition naming the call") {
    StepBench failed(R"({"step": "wait_ready"})");
    failed.port.answer(PortCall::readiness,
                       [](const json::object&) { return reply_error(STAND_E_BAD_STATE, "not installed"); });
    CHECK(failed.failure_of_all() == "lifecycle.readiness: not installed");

    StepBench no_url(R"({"step": "wait_ready"})");
    no_url.port.answer(PortCall::readiness, json::value(json::object{{"path", "/ready"}}));
    CHECK(no_url.failure_of_all() == R"(lifecycle.readiness: the plugin did not describe a request with a "url")");

    StepBench not_object(R"({"step": "wait_ready"})");
    not_object.port.answer(PortCall::readiness, json::value("http://127.0.0.1:1/"));
    CHECK(not_object.failure_of_all() == R"(lifecycle.readiness: the plugin did not describe a request with a "url")");

    StepBench bad_url(R"({"step": "wait_ready"})");
    bad_url.port.answer(PortCall::readiness, json::value(json::object{{"url", 80}}));
    CHECK(bad_url.failure_of_all() ==
          R"(readiness: expected a "url" (an HTTP request) or "tcp": "host:port")");
    CHECK(bad_url.port.count(PortCall::ended_processes) == 0);
}
