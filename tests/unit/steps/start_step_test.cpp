// start: one lifecycle.start call; the moment just before it is left for
// wait_ready (ctx.state.last_start), which times readiness from there.
#include "step_samples.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <thread>

using namespace stand::test;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

STAND_STEP_SAMPLE({"start", R"({"step": "start"})", "", nullptr});

TEST_CASE("start step: one lifecycle.start call, its beginning left for wait_ready") {
    StepBench b(R"({"step": "start"})");
    b.ctx.state.last_start = Clock::now() - std::chrono::hours(1);
    std::optional<Clock::time_point> called;
    b.port.answer(PortCall::start, [&called](const json::object&) {
        called = Clock::now();
        std::this_thread::sleep_for(std::chrono::milliseconds(30));  // a system that takes a while to start
        return reply_ok();
    });
    const auto before = Clock::now();
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.port.calls().size() == 1);
    CHECK(b.port.calls()[0].call == PortCall::start);
    CHECK(b.port.calls()[0].timeout == std::chrono::seconds(60));
    REQUIRE(called);
    // Taken as the call began, not when it returned: the start's own time counts in wait_ready.
    CHECK(b.ctx.state.last_start >= before);
    CHECK(b.ctx.state.last_start <= *called);
    CHECK(b.ctx.record.metrics.empty());
    CHECK(b.ctx.record.findings.empty());
}

TEST_CASE("start step: each start moves last_start, the step's timeout bounds the call") {
    StepBench b(R"({"step": "start", "timeout_s": 2}, {"step": "sleep", "duration_s": 0.05}, {"step": "start"})");
    b.run(0);
    const auto first = b.ctx.state.last_start;
    b.run(1);
    b.run(2);
    CHECK(b.ctx.state.last_start - first >= std::chrono::milliseconds(50));
    REQUIRE(b.port.calls().size() == 2);
    CHECK(b.port.calls()[0].timeout == std::chrono::seconds(2));
    CHECK(b.port.calls()[1].timeout == std::chrono::seconds(60));
}

TEST_CASE("start step: a failed call ends the repetition naming the call") {
    StepBench failed(R"({"step": "start"})");
    failed.port.answer(PortCall::start,
                       [](const json::object&) { return reply_error(STAND_E_IO, "xray: address already in use"); });
    CHECK(failed.failure_of_all() == "lifecycle.start: xray: address already in use");

    StepBench bare(R"({"step": "start"})");
    bare.port.answer(PortCall::start, [](const json::object&) { return reply_error(STAND_E_BAD_STATE, ""); });
    CHECK(bare.failure_of_all() == "lifecycle.start: bad-state");

    StepBench hung(R"({"step": "start"})");
    hung.port.answer(PortCall::start, [](const json::object&) {
        return reply_failure(stand::isolation::WorkerReply::Failure::kHung, "no answer in 60 s");
    });
    CHECK(hung.failure_of_all() == "lifecycle.start: no answer in 60 s");
}
