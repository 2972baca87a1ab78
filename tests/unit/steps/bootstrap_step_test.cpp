// bootstrap: the panel's one-time setup (panel.bootstrap), timed as
// <step>.seconds; bounded by the step's timeout (300 s: a panel may wait for
// its next TOTP step).
#include "step_samples.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using namespace stand::test;
namespace json = boost::json;

STAND_STEP_SAMPLE({"bootstrap", R"({"step": "bootstrap"})", "", nullptr});

TEST_CASE("bootstrap step: one panel.bootstrap call, its time as <step>.seconds") {
    StepBench b(R"({"step": "bootstrap", "name": "boot"})");
    b.port.answer(PortCall::bootstrap, [](const json::object&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(40));  // the panel's setup takes a while
        return reply_ok(json::object{{"admin", "root"}});
    });
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.port.calls().size() == 1);
    CHECK(b.port.calls()[0].call == PortCall::bootstrap);
    CHECK(b.port.calls()[0].args.empty());
    CHECK(b.port.calls()[0].timeout == std::chrono::minutes(5));
    REQUIRE(b.metric("boot.seconds").has_value());
    CHECK(*b.metric("boot.seconds") >= 0.04);
    CHECK(*b.metric("boot.seconds") < 1.0);
    CHECK(b.ctx.record.metrics.size() == 1);
    CHECK(b.ctx.record.findings.empty());
    // It creates no users for the steps after it.
    CHECK(b.ctx.state.users.empty());
}

TEST_CASE("bootstrap step: the step's timeout_s bounds the call") {
    StepBench b(R"({"step": "bootstrap", "timeout_s": 7})");
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.port.calls().size() == 1);
    CHECK(b.port.calls()[0].timeout == std::chrono::seconds(7));
    CHECK(b.metric("bootstrap1.seconds") >= 0);
}

TEST_CASE("bootstrap step: a failed call ends the repetition naming the call, with no time recorded") {
    StepBench failed(R"({"step": "bootstrap"})");
    failed.port.answer(PortCall::bootstrap,
                       [](const json::object&) { return reply_error(STAND_E_BAD_RESPONSE, "HTTP 500 from /api/admin"); });
    CHECK(failed.failure_of_all() == "panel.bootstrap: HTTP 500 from /api/admin");
    CHECK_FALSE(failed.metric("bootstrap1.seconds").has_value());

    StepBench bare(R"({"step": "bootstrap"})");
    bare.port.answer(PortCall::bootstrap, [](const json::object&) { return reply_error(STAND_E_UNREACHABLE, ""); });
    CHECK(bare.failure_of_all() == "panel.bootstrap: unreachable");

    StepBench interrupted(R"({"step": "bootstrap"})");
    interrupted.port.answer(PortCall::bootstrap, [](const json::object&) {
        return reply_failure(stand::isolation::WorkerReply::Failure::kInterrupted, "interrupted");
    });
    CHECK(interrupted.failure_of_all() == "panel.bootstrap: interrupted");
}
