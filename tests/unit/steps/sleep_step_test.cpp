// sleep: waits duration_s, measuring nothing; the run's interrupt ends it.
#include "step_samples.hpp"

#include <doctest/doctest.h>

#include <chrono>

using namespace stand::test;
using Clock = std::chrono::steady_clock;

STAND_STEP_SAMPLE({"sleep", R"({"step": "sleep", "duration_s": 0.2})", "", nullptr});

TEST_CASE("sleep step: waits its duration, calls nothing, records nothing but the step") {
    StepBench b(R"({"step": "sleep", "name": "nap", "duration_s": 0.15})");
    const auto t0 = Clock::now();
    CHECK(b.failure_of_all() == "");
    const auto took = Clock::now() - t0;
    CHECK(took >= std::chrono::milliseconds(150));
    CHECK(took < std::chrono::milliseconds(700));
    CHECK(b.port.calls().empty());
    CHECK(b.ctx.record.metrics.empty());
    CHECK(b.ctx.record.findings.empty());
    CHECK(b.ctx.record.windows.empty());
    REQUIRE(b.ctx.record.steps.size() == 1);
    CHECK(b.ctx.record.steps[0].at("name").as_string() == "nap");
    CHECK(b.ctx.record.steps[0].at("seconds").to_number<double>() >= 0.15);
    // Its timeout is its duration and 30 s.
    CHECK(b.step(0).timeout == std::chrono::milliseconds(30'150));
}

TEST_CASE("sleep step: the run's interrupt ends it early with StepFailure") {
    StepBench b(R"({"step": "sleep", "duration_s": 30})");
    const auto [failure, took] = b.failure_of_all_interrupted_after(std::chrono::milliseconds(50));
    CHECK(failure == "interrupted");
    CHECK(took >= std::chrono::milliseconds(50));
    CHECK(took < std::chrono::milliseconds(500));
    CHECK(b.ctx.record.steps.empty());
}
