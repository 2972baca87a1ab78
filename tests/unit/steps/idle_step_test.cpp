// idle: waits duration_s while the sampler watches the measured box; from its
// window: <step>.cpu_pct, mem_mean_mib, mem_max_mib, anon_mean_mib,
// workset_mean_mib, procs. Without a sampler (no box) it only waits.
#include "sampler/sampler.hpp"
#include "step_samples.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

using namespace stand::test;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

// A box that burns a quarter of one CPU and holds 64 MiB (48 of it
// anonymous, 16 inactive page cache) in 3 processes (a slow field).
class QuarterCpuBox final : public stand::sampler::SampleSource {
public:
    void read(stand::sampler::Sample& s, bool slow) override {
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(s.t - origin_).count();
        s.cpu_usage_us = static_cast<std::uint64_t>(us / 4);
        s.mem_current = 64 * kMiB;
        s.anon = 48 * kMiB;
        s.inactive_file = 16 * kMiB;
        if (slow) s.procs = 3;
    }
    std::string describe() const override { return "a fake box"; }

private:
    const Clock::time_point origin_ = Clock::now();
};

// The bench's sampler: the fake box every 20 ms, started (as the engine's is).
void sample_fake_box(StepBench& b) {
    stand::sampler::SamplerOptions options;
    options.interval = std::chrono::milliseconds(20);
    options.host_pressure = false;  // no /proc/pressure: the box alone
    auto sampler = std::make_shared<stand::sampler::Sampler>(std::make_unique<QuarterCpuBox>(), options);
    sampler->start();
    b.env.sampler = sampler.get();
    b.keep.push_back(sampler);
}

}  // namespace

STAND_STEP_SAMPLE({"idle", R"({"step": "idle", "duration_s": 0.2})", "", sample_fake_box});

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
    sample_fake_box(b);
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
    stand::sampler::SamplerOptions options;
    options.interval = std::chrono::seconds(10);  // no sample of the schedule falls inside the step
    options.host_pressure = false;
    auto sampler = std::make_shared<stand::sampler::Sampler>(std::make_unique<QuarterCpuBox>(), options);
    b.env.sampler = sampler.get();
    b.keep.push_back(sampler);
    CHECK(b.failure_of_all() == "");
    REQUIRE(b.ctx.record.windows.contains("blink"));
    CHECK(b.ctx.record.windows.at("blink").at("samples").to_number<double>() == 2);
    CHECK(b.ctx.record.findings.empty());
    CHECK(b.metric("blink.mem_max_mib") == doctest::Approx(64));
}

TEST_CASE("idle step: the run's interrupt ends it early with StepFailure and no window") {
    StepBench b(R"({"step": "idle", "duration_s": 30})");
    sample_fake_box(b);
    std::thread signal([&b] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        b.interrupted = true;
    });
    const auto t0 = Clock::now();
    const std::string failure = b.failure_of_all();
    const auto took = Clock::now() - t0;
    signal.join();
    CHECK(failure == "interrupted");
    CHECK(took < std::chrono::milliseconds(500));
    CHECK(b.ctx.record.windows.empty());
    CHECK(b.ctx.record.metrics.empty());
}
