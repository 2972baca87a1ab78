// wipe: one lifecycle.wipe call (the plugin removes what it installed),
// bounded by the step's timeout (60 s unless timeout_s says otherwise); it
// records nothing of its own.
#include "step_samples.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <chrono>

using namespace stand::test;
namespace json = boost::json;

STAND_STEP_SAMPLE({"wipe", R"({"step": "wipe"})", "", nullptr});

TEST_CASE("wipe step: one lifecycle.wipe call bounded by the step's timeout, no metric") {
    StepBench b(R"({"step": "wipe"})");
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.port.calls().size() == 1);
    CHECK(b.port.calls()[0].call == PortCall::wipe);
    CHECK(b.port.calls()[0].args.empty());
    CHECK(b.port.calls()[0].timeout == std::chrono::seconds(60));
    CHECK(b.ctx.record.metrics.empty());
    CHECK(b.ctx.record.findings.empty());
    // The step itself is on the record, under its default name.
    REQUIRE(b.ctx.record.steps.size() == 1);
    CHECK(b.ctx.record.steps[0].at("name").as_string() == "wipe1");
    CHECK(b.ctx.record.steps[0].at("kind").as_string() == "wipe");

    StepBench timed(R"({"step": "wipe", "timeout_s": 5})");
    CHECK(timed.failure_of_all() == "");
    REQUIRE(timed.port.calls().size() == 1);
    CHECK(timed.port.calls()[0].timeout == std::chrono::seconds(5));
}

TEST_CASE("wipe step: what the plugin answers beside success is not read") {
    StepBench b(R"({"step": "wipe", "name": "wi"})");
    b.port.answer(PortCall::wipe, json::value(json::object{{"unexpected", 1}}));
    const auto start_before = b.ctx.state.last_start;
    CHECK(b.failure_of_all() == "");
    CHECK(b.ctx.state.last_start == start_before);  // only a start step moves it
    CHECK(b.ctx.record.metrics.empty());
    // It leaves nothing for the next step: no users, no proxy state.
    CHECK(b.ctx.state.users.empty());
    CHECK(b.ctx.state.settings_set.empty());
}

TEST_CASE("wipe step: a failed call ends the repetition naming the call") {
    StepBench failed(R"({"step": "wipe"})");
    failed.port.answer(PortCall::wipe,
                       [](const json::object&) { return reply_error(STAND_E_IO, "cannot remove /opt/panel: Device or resource busy"); });
    CHECK(failed.failure_of_all() == "lifecycle.wipe: cannot remove /opt/panel: Device or resource busy");
    CHECK(failed.ctx.record.steps.empty());

    // Without a message, the result's name stands for it.
    StepBench bare(R"({"step": "wipe"})");
    bare.port.answer(PortCall::wipe, [](const json::object&) { return reply_error(STAND_E_TIMEOUT, ""); });
    CHECK(bare.failure_of_all() == "lifecycle.wipe: timeout");

    StepBench crashed(R"({"step": "wipe"})");
    crashed.port.answer(PortCall::wipe, [](const json::object&) {
        return reply_failure(stand::isolation::WorkerReply::Failure::kCrashed, "the worker died of signal 11");
    });
    CHECK(crashed.failure_of_all() == "lifecycle.wipe: the worker died of signal 11");
}
