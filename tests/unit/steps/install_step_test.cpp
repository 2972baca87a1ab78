// install: one lifecycle.install call, bounded by the step's timeout (600 s
// unless timeout_s says otherwise); it records nothing of its own.
#include "lifecycle_call_cases.hpp"
#include "step_samples.hpp"

#include <doctest/doctest.h>

#include <chrono>

using namespace stand::test;

namespace {

const LifecycleCallKind kInstall{"install", PortCall::install, std::chrono::minutes(10), "apt-get exited with status 100"};

}  // namespace

STAND_STEP_SAMPLE({"install", R"({"step": "install"})", "", nullptr});

TEST_CASE("install step: one lifecycle.install call bounded by the step's timeout, no metric") {
    check_one_call_bounded_by_the_timeout(kInstall);
}

TEST_CASE("install step: what the plugin answers beside success is not read") {
    check_the_answer_beside_success_is_not_read(kInstall);
}

TEST_CASE("install step: a failed call ends the repetition naming the call") {
    check_a_failed_call_ends_the_repetition(kInstall);
}
