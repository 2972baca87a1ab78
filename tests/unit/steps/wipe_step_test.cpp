// wipe: one lifecycle.wipe call (the plugin removes what it installed),
// bounded by the step's timeout (60 s unless timeout_s says otherwise); it
// records nothing of its own.
#include "lifecycle_call_cases.hpp"
#include "step_samples.hpp"

#include <doctest/doctest.h>

#include <chrono>

using namespace stand::test;

namespace {

const LifecycleCallKind kWipe{"wipe", PortCall::wipe, std::chrono::seconds(60), "cannot remove /opt/panel: Device or resource busy"};

}  // namespace

STAND_STEP_SAMPLE({"wipe", R"({"step": "wipe"})", "", nullptr});

TEST_CASE("wipe step: one lifecycle.wipe call bounded by the step's timeout, no metric") {
    check_one_call_bounded_by_the_timeout(kWipe);
}

TEST_CASE("wipe step: what the plugin answers beside success is not read") {
    check_the_answer_beside_success_is_not_read(kWipe);
}

TEST_CASE("wipe step: a failed call ends the repetition naming the call") {
    check_a_failed_call_ends_the_repetition(kWipe);
}
