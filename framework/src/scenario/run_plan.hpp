// The order in which (repetition, plugin) pairs run: rotation, a seeded
// shuffle, or the order of the file. Deterministic, so a resumed run
// continues the same plan.
#pragma once

#include "scenario/scenario_model.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace stand::scenario {

struct PlannedRep {
    std::uint32_t rep = 0;     // 1-based
    std::size_t plugin = 0;    // index into Scenario::plugins
    std::string key;           // "<label>_r<rep>": file names and resume
};

std::vector<PlannedRep> make_run_plan(const Scenario& scenario);

}  // namespace stand::scenario
