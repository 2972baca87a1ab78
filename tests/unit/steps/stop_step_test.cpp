// stop: one lifecycle.stop call, bounded by the step's timeout (60 s unless
// timeout_s says otherwise); it records nothing of its own.
#include "lifecycle_call_cases.hpp"
#include "step_samples.hpp"

#include <doctest/doctest.h>

#include <chrono>

using namespace stand::test;

namespace {

const LifecycleCallKind kStop{"stop", PortCall::stop, std::chrono::seconds(60), "systemctl stop xray: unit not loaded"};

}  // namespace

STAND_STEP_SAMPLE({"stop", R"({"step": "stop"})", "", nullptr});

TEST_CASE("stop step: one lifecycle.stop call bounded by the step's timeout, no metric") {
    check_one_call_bounded_by_the_timeout(kStop);
}

TEST_CASE("stop step: what the plugin answers beside success is not read") {
    check_the_answer_beside_success_is_not_read(kStop);
}

TEST_CASE("stop step: a failed call ends the repetition naming the call") {
    check_a_failed_call_ends_the_repetition(kStop);
}
