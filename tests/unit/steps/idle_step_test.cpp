// idle: waits duration_s while the sampler watches the measured box; from its
// window: <step>.cpu_pct, mem_mean_mib, mem_max_mib, anon_mean_mib,
// workset_mean_mib, procs. Without a sampler (no box) it only waits.
#include "fake_box_fixtures.hpp"
#include "step_samples.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <string>

using namespace stand::test;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

// A box that burns a quarter of one CPU and holds 64 MiB (48 of it
// anonymous, 16 inactive page cache) in 3 processes.
const FakeBoxShape kQuarterCpuBox{0.25, 64 * kMiB, 48 * kMiB, 16 * kMiB, 3};

void sample_quarter_cpu_box(StepBench& b) { sample_fake_box(b, kQuarterCpuBox, std::chrono::milliseconds(20)); }

}  // namespace

STAND_STEP_SAMPLE({"idle", R"({"step": "idle", "duration_s": 0.2})", "", sample_quarter_cpu_box});

TEST_CASE("idle step: without a sampler it waits and records nothing, no window and no finding") {
    StepBench b(R"({"step": "idle", "name": "rest", "duration_s": 0.15})");
    REQUIRE(b.env.sampler == nullptr);
    const auto t0 = Clock::now();
    CHECK(b.failure_of_all() == "");
    CHECK(Clock::now() - t0 >= std::chrono::milliseconds(150));
    CHECK(b.port.calls().empty());
    CHECK(b.ctx.record.metrics.empty());
    CHECK(b.ctx.record.windows.empty());
    CHECK(b.ctx.record.findings.empty());
    REQUIRE(b.ctx.record.steps.size() == 1);
    CHECK(b.ctx.record.steps[0].at("name").as_string() == "rest");
}

TEST_CASE("idle step: with a sampler, the box's CPU and memory over the step") {
    StepBench b(R"({"step": "idle", "name": "rest", "duration_s": 0.2})");
    sample_quarter_cpu_box(b);
    CHECK(b.failure_of_all() == "");
    CHECK(b.metric("rest.cpu_pct") == doctest::Approx(25).epsilon(0.02));
    CHECK(b.metric("rest.mem_mean_mib") == doctest::Approx(64));
    CHECK(b.metric("rest.mem_max_mib") == doctest::Approx(64));
    CHECK(b.metric("rest.anon_mean_mib") == doctest::Approx(48));
    // The working set leaves out the inactive page cache.
    CHECK(b.metric("rest.workset_mean_mib") == doctest::Approx(48));
    CHECK(b.metric("rest.procs") == 3);
    // The window itself is on the record under the step's name.
    REQUIRE(b.ctx.record.windows.contains("rest"));
    const auto& w = b.ctx.record.windows.at("rest").as_object();
    CHECK(w.at("samples").to_number<double>() >= 3);
    CHECK(w.at("duration_s").to_number<double>() >= 0.1);
    CHECK(w.at("duration_s").to_number<double>() <= 0.25);
    CHECK(b.ctx.record.findings.empty());
    CHECK(b.port.calls().empty());
}

TEST_CASE("idle step: a step shorter than the sampler's interval has its window of the edges' two samples") {
    StepBench b(R"({"step": "idle", "name": "blink", "duration_s": 0.05})");
    // Not started, and no sample of its schedule would fall inside the step.
    sample_fake_box(b, kQuarterCpuBox, std::chrono::seconds(10), false);
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.ctx.record.windows.contains("blink"));
    CHECK(b.ctx.record.windows.at("blink").at("samples").to_number<double>() == 2);
    CHECK(b.ctx.record.findings.empty());
    CHECK(b.metric("blink.mem_max_mib") == doctest::Approx(64));
}

TEST_CASE("idle step: the run's interrupt ends it early with StepFailure and no window") {
    StepBench b(R"({"step": "idle", "duration_s": 30})");
    sample_quarter_cpu_box(b);
    const auto [failure, took] = b.failure_of_all_interrupted_after(std::chrono::milliseconds(50));
    CHECK(failure == "interrupted");
    CHECK(took < std::chrono::milliseconds(500));
    CHECK(b.ctx.record.windows.empty());
    CHECK(b.ctx.record.metrics.empty());
}
