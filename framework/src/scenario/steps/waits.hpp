// The keys of sleep and idle (waits.cpp).
#pragma once

#include "scenario/scenario_model.hpp"

namespace stand::scenario {

struct SleepStep {
    Seconds duration{0};
};
struct IdleStep {
    Seconds duration{0};
};

}  // namespace stand::scenario
