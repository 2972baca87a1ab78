// restart: lifecycle.restart (<step>.command_seconds), then the readiness
// request polled until it succeeds (<step>.seconds), both timed from the
// restart command; with admin_api, then panel.admin_call until it succeeds
// (<step>.admin_api_seconds).
#include "endpoint_fixtures.hpp"
#include "step_samples.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

using namespace stand::test;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

namespace {

// The restart command takes `ms` before it returns.
void restart_takes(StepBench& b, int ms) {
    b.port.answer(PortCall::restart, [ms](const json::object&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        return reply_ok();
    });
}

}  // namespace

STAND_STEP_SAMPLE({"restart", R"({"step": "restart", "interval_ms": 10, "admin_api": true})", "", system_ready});

TEST_CASE("restart step: the command's time, then readiness timed from the command") {
    StepBench b(R"({"step": "restart", "name": "rs", "interval_ms": 20})");
    const auto server = ready_server(b, [](std::size_t n) { return n <= 2 ? 502u : 200u; });
    restart_takes(b, 50);
    const auto start_before = b.ctx.state.last_start;
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.metric("rs.command_seconds").has_value());
    REQUIRE(b.metric("rs.seconds").has_value());
    CHECK(*b.metric("rs.command_seconds") >= 0.05);
    CHECK(*b.metric("rs.command_seconds") < 1.0);
    // Readiness counts from the restart command: its time, then two failed rounds 20 ms apart.
    CHECK(*b.metric("rs.seconds") >= *b.metric("rs.command_seconds") + 0.04);
    CHECK(*b.metric("rs.seconds") < 2.0);
    CHECK(server->requests().size() == 3);
    // Without admin_api, no admin call and no admin_api_seconds.
    CHECK_FALSE(b.metric("rs.admin_api_seconds").has_value());
    CHECK(b.port.count(PortCall::admin_call) == 0);
    const std::vector<PortCall> expected{PortCall::restart,         PortCall::readiness,       PortCall::ended_processes,
                                         PortCall::ended_processes, PortCall::ended_processes};
    CHECK(b.port.call_sequence() == expected);
    CHECK(b.port.calls()[0].timeout == std::chrono::minutes(3));
    // A restart is not a start: wait_ready after it still times from the last start step.
    CHECK(b.ctx.state.last_start == start_before);
}

TEST_CASE("restart step: with admin_api, until panel.admin_call answers, every 100 ms") {
    StepBench b(R"({"step": "restart", "name": "rs", "interval_ms": 10, "admin_api": true})");
    ready_server(b, [](std::size_t) { return 200u; });
    int admin_calls = 0;
    b.port.answer(PortCall::admin_call, [&admin_calls](const json::object&) {
        return ++admin_calls <= 2 ? reply_error(STAND_E_BAD_RESPONSE, "HTTP 502 from /panel/api/server/status")
                                  : reply_ok(json::object{{"ok", true}});
    });
    CHECK(b.failure_of_all() == "");
    CHECK(admin_calls == 3);
    REQUIRE(b.metric("rs.admin_api_seconds").has_value());
    REQUIRE(b.metric("rs.seconds").has_value());
    // After readiness, and two waits of 100 ms later.
    CHECK(*b.metric("rs.admin_api_seconds") >= *b.metric("rs.seconds") + 0.2);
    CHECK(*b.metric("rs.admin_api_seconds") < 2.0);
    CHECK(b.port.calls().back().call == PortCall::admin_call);
}

TEST_CASE("restart step: a failed restart or readiness ends the repetition naming what failed") {
    StepBench failed(R"({"step": "restart"})");
    system_ready(failed);
    failed.port.answer(PortCall::restart,
                       [](const json::object&) { return reply_error(STAND_E_IO, "systemctl restart x-ui: exit 1"); });
    CHECK(failed.failure_of_all() == "lifecycle.restart: systemctl restart x-ui: exit 1");
    CHECK(failed.port.count(PortCall::readiness) == 0);
    CHECK_FALSE(failed.metric("restart1.command_seconds").has_value());

    StepBench no_url(R"({"step": "restart"})");
    no_url.port.answer(PortCall::readiness, json::value(nullptr));
    CHECK(no_url.failure_of_all() == R"(lifecycle.readiness: the plugin did not describe a request with a "url")");
    // The command was timed before readiness was asked for.
    CHECK(no_url.metric("restart1.command_seconds") >= 0);

    StepBench never_ready(R"({"step": "restart", "interval_ms": 20, "timeout_s": 0.2})");
    ready_server(never_ready, [](std::size_t) { return 503u; });
    const std::string not_ready = never_ready.failure_of_all();
    CHECK(not_ready.starts_with("not ready: readiness "));
    CHECK(not_ready.ends_with("; last: HTTP 503"));
    CHECK_FALSE(never_ready.metric("restart1.seconds").has_value());
}

TEST_CASE("restart step: the admin API failing or refusing ends the repetition naming it") {
    // The worker itself failing on the admin call ends it at once.
    StepBench crashed(R"({"step": "restart", "interval_ms": 10, "admin_api": true})");
    system_ready(crashed);
    crashed.port.answer(PortCall::admin_call, [](const json::object&) {
        return reply_failure(stand::isolation::WorkerReply::Failure::kCrashed, "the worker died of signal 6");
    });
    CHECK(crashed.failure_of_all() == "panel.admin_call: the worker died of signal 6");
    CHECK(crashed.port.count(PortCall::admin_call) == 1);

    // The panel refusing until the step's timeout: its last error is named.
    StepBench refused(R"({"step": "restart", "interval_ms": 10, "admin_api": true, "timeout_s": 0.25})");
    system_ready(refused);
    refused.port.answer(PortCall::admin_call,
                        [](const json::object&) { return reply_error(STAND_E_BAD_RESPONSE, "HTTP 401: login failed"); });
    const auto t0 = Clock::now();
    CHECK(refused.failure_of_all() ==
          "the admin API did not answer before the step's timeout; last error: HTTP 401: login failed");
    CHECK(Clock::now() - t0 < std::chrono::milliseconds(900));
    CHECK(refused.port.count(PortCall::admin_call) >= 2);
    CHECK_FALSE(refused.metric("restart1.admin_api_seconds").has_value());
}
