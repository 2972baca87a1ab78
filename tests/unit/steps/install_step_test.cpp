// install: one lifecycle.install call, bounded by the step's timeout (600 s
// unless timeout_s says otherwise); it records nothing of its own.
#include "step_samples.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <chrono>

using namespace stand::test;
namespace json = boost::json;

STAND_STEP_SAMPLE({"install", R"({"step": "install"})", "", nullptr});

TEST_CASE("install step: one lifecycle.install call bounded by the step's timeout, no metric") {
    StepBench b(R"({"step": "install"})");
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.port.calls().size() == 1);
    CHECK(b.port.calls()[0].call == PortCall::install);
    CHECK(b.port.calls()[0].args.empty());
    CHECK(b.port.calls()[0].timeout == std::chrono::minutes(10));
    CHECK(b.ctx.record.metrics.empty());
    CHECK(b.ctx.record.findings.empty());
    // The step itself is on the record, under its default name.
    REQUIRE(b.ctx.record.steps.size() == 1);
    CHECK(b.ctx.record.steps[0].at("name").as_string() == "install1");
    CHECK(b.ctx.record.steps[0].at("kind").as_string() == "install");

    StepBench timed(R"({"step": "install", "timeout_s": 5})");
    CHECK(timed.failure_of_all() == "");
    REQUIRE(timed.port.calls().size() == 1);
    CHECK(timed.port.calls()[0].timeout == std::chrono::seconds(5));
}

TEST_CASE("install step: what the plugin answers beside success is not read") {
    StepBench b(R"({"step": "install", "name": "in"})");
    b.port.answer(PortCall::install, json::value(json::object{{"unexpected", 1}}));
    const auto start_before = b.ctx.state.last_start;
    CHECK(b.failure_of_all() == "");
    CHECK(b.ctx.state.last_start == start_before);  // only a start step moves it
    CHECK(b.ctx.record.metrics.empty());
    // Installing leaves nothing for the next step: no users, no proxy state.
    CHECK(b.ctx.state.users.empty());
    CHECK(b.ctx.state.settings_set.empty());
}

TEST_CASE("install step: a failed call ends the repetition naming the call") {
    StepBench failed(R"({"step": "install"})");
    failed.port.answer(PortCall::install,
                       [](const json::object&) { return reply_error(STAND_E_IO, "apt-get exited with status 100"); });
    CHECK(failed.failure_of_all() == "lifecycle.install: apt-get exited with status 100");
    CHECK(failed.ctx.record.steps.empty());

    // Without a message, the result's name stands for it.
    StepBench bare(R"({"step": "install"})");
    bare.port.answer(PortCall::install, [](const json::object&) { return reply_error(STAND_E_TIMEOUT, ""); });
    CHECK(bare.failure_of_all() == "lifecycle.install: timeout");

    StepBench crashed(R"({"step": "install"})");
    crashed.port.answer(PortCall::install, [](const json::object&) {
        return reply_failure(stand::isolation::WorkerReply::Failure::kCrashed, "the worker died of signal 11");
    });
    CHECK(crashed.failure_of_all() == "lifecycle.install: the worker died of signal 11");
}
