// Each step kind's sample: a configuration of it that runs through on the
// fake port, with the answers it needs. Registered by the kind's test file
// (<kind>_step_test.cpp, STAND_STEP_SAMPLE); interrupt_test.cpp runs every
// kind's sample with the run's interrupt at each of its port calls.
#pragma once

#include "step_bench.hpp"

#include <functional>
#include <string>
#include <vector>

namespace stand::test {

struct StepSample {
    std::string kind;
    std::string steps;  // the steps before it (create_users for a tunnel), then it, last
    std::string extra;  // top-level scenario keys
    std::function<void(StepBench&)> setup;
    // Empty: the sample runs through. Otherwise a part of the StepFailure it
    // ends with, for a kind whose success needs a peer that exists only as a
    // program (a Hysteria server): its port calls are still interrupted one
    // by one, and the end-to-end test that runs it on the peer says so.
    std::string expect_failure = {};
};

inline std::vector<StepSample>& step_samples() {
    static std::vector<StepSample> samples;
    return samples;
}

struct StepSampleRegistrar {
    explicit StepSampleRegistrar(StepSample s) { step_samples().push_back(std::move(s)); }
};

}  // namespace stand::test

#define STAND_STEP_SAMPLE_CAT2(a, b) a##b
#define STAND_STEP_SAMPLE_CAT(a, b) STAND_STEP_SAMPLE_CAT2(a, b)
// STAND_STEP_SAMPLE({"kind", R"({...})", "", [](StepBench& b) { ... }});
#define STAND_STEP_SAMPLE(...) \
    static const ::stand::test::StepSampleRegistrar STAND_STEP_SAMPLE_CAT(step_sample_, __LINE__)(::stand::test::StepSample __VA_ARGS__)
