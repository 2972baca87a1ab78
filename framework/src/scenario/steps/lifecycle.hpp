// The keys of install, start, stop, wipe, wait_ready and restart (lifecycle.cpp).
#pragma once

#include "scenario/scenario_model.hpp"

#include <chrono>

namespace stand::scenario {

struct InstallStep {};
struct StartStep {};
struct StopStep {};
struct WipeStep {};
struct WaitReadyStep {
    std::chrono::milliseconds interval{50};
    std::chrono::milliseconds per_try_timeout{2000};
};
// Restart the system and time it until the readiness request succeeds again.
struct RestartStep {
    std::chrono::milliseconds interval{50};
    std::chrono::milliseconds per_try_timeout{2000};
    // Also time until the panel's admin API answers (panel.admin_call), not
    // only its readiness request (seed onebox phase E).
    bool admin_api = false;
};

}  // namespace stand::scenario
