// A measured box made up for the steps' tests, and a sampler watching it.
#pragma once

#include "sampler/sampler.hpp"
#include "step_bench.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace stand::test {

// What the fake box reads: `cpu_share` of one CPU burnt since it was made;
// a field left empty is one the box does not have.
struct FakeBoxShape {
    double cpu_share = 0;
    std::optional<std::uint64_t> mem_current, anon, inactive_file;
    std::optional<std::uint64_t> procs;  // a slow field: read on slow samples only

    // A box of CPU alone, no memory or processes read.
    static FakeBoxShape cpu_only(double cpu_share) {
        FakeBoxShape shape;
        shape.cpu_share = cpu_share;
        return shape;
    }
};

class FakeBox final : public sampler::SampleSource {
public:
    explicit FakeBox(FakeBoxShape shape) : shape_(shape) {}
    void read(sampler::Sample& s, bool slow) override {
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(s.t - origin_).count();
        s.cpu_usage_us = static_cast<std::uint64_t>(static_cast<double>(us) * shape_.cpu_share);
        if (shape_.mem_current) s.mem_current = shape_.mem_current;
        if (shape_.anon) s.anon = shape_.anon;
        if (shape_.inactive_file) s.inactive_file = shape_.inactive_file;
        if (slow && shape_.procs) s.procs = shape_.procs;
    }
    std::string describe() const override { return "a fake box"; }

private:
    FakeBoxShape shape_;
    const std::chrono::steady_clock::time_point origin_ = std::chrono::steady_clock::now();
};

// The bench's sampler over a fake box of `shape`, sampling every `interval`;
// started (as the engine's is) unless `started` is false.
inline void sample_fake_box(StepBench& b, FakeBoxShape shape, std::chrono::milliseconds interval,
                            bool started = true) {
    sampler::SamplerOptions options;
    options.interval = interval;
    options.host_pressure = false;  // no /proc/pressure: the box alone
    auto box_sampler = std::make_shared<sampler::Sampler>(std::make_unique<FakeBox>(shape), options);
    if (started) box_sampler->start();
    b.env.sampler = box_sampler.get();
    b.keep.push_back(box_sampler);
}

}  // namespace stand::test
