// The keys of capacity (capacity.cpp): a search for the highest offered rate
// that meets an objective, level by level, each an open-model load.
#pragma once

#include "scenario/scenario_model.hpp"
#include "scenario/steps/load.hpp"
#include "stats/capacity_search.hpp"

namespace stand::scenario {

struct CapacityStep {
    // What a level loads: HTTP requests (the load step's), or users created
    // through the panel's admin API (steps/capacity_admin.hpp).
    enum class Target { http, admin_create } target = Target::http;
    LoadStep load;             // what each level sends (its rate and duration set per level)
    stats::CapacityPlan plan;  // the rates, the resolution and the objective
    Seconds dwell{10};         // each level's duration
};

}  // namespace stand::scenario
