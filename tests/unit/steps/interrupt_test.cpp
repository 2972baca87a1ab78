// The run's interrupt (SIGINT, SIGTERM) at every point a step waits on the
// plugin: each kind's sample (step_samples.hpp) is run once to count its port
// calls, then once per call with the flag set as that call begins, the call
// and every later one answering as the worker does once interrupted. The
// step must end within a second of the flag, with StepFailure or whole, and
// no kind may lack a sample, so a kind added without one fails here. The
// calls a sample makes must belong to the interfaces its kind declares.
#include "scenario/step_interfaces.hpp"
#include "scenario/steps/step_kind.hpp"
#include "step_samples.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

using namespace stand;
using namespace stand::test;

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPrompt = std::chrono::milliseconds(1000);

const StepSample* sample_of(std::string_view kind) {
    for (const auto& s : step_samples())
        if (s.kind == kind) return &s;
    return nullptr;
}

struct Ending {
    std::string failure;
    Clock::duration after_flag{};
    std::size_t calls = 0;
};

// The sample with the flag set as port call `at` begins (none: at a time, `after`).
Ending run_interrupted(const StepSample& sample, std::optional<std::size_t> at, Clock::duration after) {
    StepBench b(sample.steps, sample.extra);
    if (sample.setup) sample.setup(b);
    std::optional<Clock::time_point> flagged;
    b.port.before_call = [&](std::size_t index, PortCall) {
        if (at && index == *at && !flagged) {
            b.interrupted = true;
            flagged = Clock::now();
        }
    };
    b.port.interrupt_when(b.interrupted);
    std::thread timer;
    if (!at)
        timer = std::thread([&] {
            std::this_thread::sleep_for(after);
            flagged = Clock::now();
            b.interrupted = true;
        });
    Ending e;
    e.failure = b.failure_of_all();
    const auto ended = Clock::now();
    if (timer.joinable()) timer.join();
    e.after_flag = flagged ? ended - *flagged : Clock::duration{};
    e.calls = b.port.calls().size();
    (void)b.ctx.record.to_json("interrupted");
    return e;
}

}  // namespace

TEST_CASE("step interrupt: every kind has a sample that runs through on the fake port") {
    for (const auto* kind : scenario::step_kinds()) {
        CAPTURE(kind->name);
        const StepSample* sample = sample_of(kind->name);
        REQUIRE_MESSAGE(sample != nullptr, "no STAND_STEP_SAMPLE for the step kind ", kind->name,
                        " (tests/unit/steps/", kind->name, "_step_test.cpp)");
        StepBench b(sample->steps, sample->extra);
        if (sample->setup) sample->setup(b);
        CHECK(b.step(b.steps() - 1).kind == kind->name);
        const std::string failure = b.failure_of_all();
        if (sample->expect_failure.empty())
            CHECK(failure == "");
        else
            CHECK(failure.find(sample->expect_failure) != std::string::npos);
        // A call of stand.panel/1, proxy/1 or probe/1 is one of the interfaces the kind declares.
        const auto declared = scenario::step_interfaces(b.step(b.steps() - 1));
        for (const auto& call : b.port.calls()) {
            const auto iface = scenario::interface_of(call.call);
            if (iface.empty() || iface == "stand.lifecycle/1") continue;
            CAPTURE(scenario::abi_name(call.call));
            CHECK(std::find(declared.begin(), declared.end(), iface) != declared.end());
        }
    }
}

TEST_CASE("step interrupt: at each port call, every kind ends within a second") {
    for (const auto* kind : scenario::step_kinds()) {
        const StepSample* sample = sample_of(kind->name);
        if (sample == nullptr) continue;  // the case above names it
        StepBench whole(sample->steps, sample->extra);
        if (sample->setup) sample->setup(whole);
        (void)whole.failure_of_all();
        const std::size_t calls = whole.port.calls().size();
        for (std::size_t at = 0; at < calls; ++at) {
            CAPTURE(kind->name);
            CAPTURE(at);
            const Ending e = run_interrupted(*sample, at, {});
            CHECK(e.after_flag < kPrompt);
        }
    }
}

TEST_CASE("step interrupt: 100 ms into its run, every kind ends within a second") {
    for (const auto* kind : scenario::step_kinds()) {
        const StepSample* sample = sample_of(kind->name);
        if (sample == nullptr) continue;
        CAPTURE(kind->name);
        const Ending e = run_interrupted(*sample, std::nullopt, std::chrono::milliseconds(100));
        CHECK(e.after_flag < kPrompt);
    }
}
