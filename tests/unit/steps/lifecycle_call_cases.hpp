// The checks shared by the step kinds that are one lifecycle call of the
// plugin (install, stop, wipe): the call, bounded by the step's timeout, and
// its failures. Each kind's test file calls them from its own cases.
#pragma once

#include "step_bench.hpp"

#include <stand/stand.h>

#include <boost/json.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <string>

namespace stand::test {

struct LifecycleCallKind {
    std::string kind;  // the step kind, named as the call is: lifecycle.<kind>
    PortCall call;
    std::chrono::seconds default_timeout;
    std::string plugin_error;  // what the plugin says when the call fails
};

inline std::string step_of(const LifecycleCallKind& k, const std::string& keys = "") {
    return R"({"step": ")" + k.kind + '"' + keys + "}";
}

inline void check_one_call_bounded_by_the_timeout(const LifecycleCallKind& k) {
    StepBench b(step_of(k));
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.port.calls().size() == 1);
    CHECK(b.port.calls()[0].call == k.call);
    CHECK(b.port.calls()[0].args.empty());
    CHECK(b.port.calls()[0].timeout == k.default_timeout);
    CHECK(b.ctx.record.metrics.empty());
    CHECK(b.ctx.record.findings.empty());
    // The step itself is on the record, under its default name.
    REQUIRE(b.ctx.record.steps.size() == 1);
    CHECK(b.ctx.record.steps[0].at("name").as_string() == k.kind + "1");
    CHECK(b.ctx.record.steps[0].at("kind").as_string() == k.kind);

    StepBench timed(step_of(k, R"(, "timeout_s": 5)"));
    CHECK(timed.failure_of_all() == "");
    REQUIRE(timed.port.calls().size() == 1);
    CHECK(timed.port.calls()[0].timeout == std::chrono::seconds(5));
}

inline void check_the_answer_beside_success_is_not_read(const LifecycleCallKind& k) {
    StepBench b(step_of(k, R"(, "name": "renamed")"));
    b.port.answer(k.call, boost::json::value(boost::json::object{{"unexpected", 1}}));
    const auto start_before = b.ctx.state.last_start;
    CHECK(b.failure_of_all() == "");
    CHECK(b.ctx.state.last_start == start_before);  // only a start step moves it
    CHECK(b.ctx.record.metrics.empty());
    // It leaves nothing for the next step: no users, no proxy state.
    CHECK(b.ctx.state.users.empty());
    CHECK(b.ctx.state.settings_set.empty());
}

inline void check_a_failed_call_ends_the_repetition(const LifecycleCallKind& k) {
    const std::string call_name = "lifecycle." + k.kind;
    StepBench failed(step_of(k));
    failed.port.answer(k.call, [&k](const boost::json::object&) { return reply_error(STAND_E_IO, k.plugin_error); });
    CHECK(failed.failure_of_all() == call_name + ": " + k.plugin_error);
    CHECK(failed.ctx.record.steps.empty());

    // Without a message, the result's name stands for it.
    StepBench bare(step_of(k));
    bare.port.answer(k.call, [](const boost::json::object&) { return reply_error(STAND_E_TIMEOUT, ""); });
    CHECK(bare.failure_of_all() == call_name + ": timeout");

    StepBench crashed(step_of(k));
    crashed.port.answer(k.call, [](const boost::json::object&) {
        return reply_failure(isolation::WorkerReply::Failure::kCrashed, "the worker died of signal 11");
    });
    CHECK(crashed.failure_of_all() == call_name + ": the worker died of signal 11");
}

}  // namespace stand::test
