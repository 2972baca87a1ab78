// The keys of capacity (capacity.cpp): a search for the highest offered rate
// that meets an objective, level by level, each an open-model load.
#pragma once

#include "detect/machine_busy.hpp"
#include "scenario/scenario_model.hpp"
#include "scenario/steps/load.hpp"
#include "stats/capacity_search.hpp"

#include <cstdint>
#include <string>

namespace stand::load {
struct LoadResult;
}

namespace stand::scenario {

struct CapacityStep {
    // What a level loads: HTTP requests (the load step's), or users created
    // through the panel's admin API (steps/capacity_admin.hpp).
    enum class Target { http, admin_create } target = Target::http;
    LoadStep load;             // what each level sends (its rate and duration set per level)
    stats::CapacityPlan plan;  // the rates, the resolution and the objective
    Seconds dwell{10};         // each level's duration
    // Above this much hypervisor steal (% of the CPU time) a level is disturbed.
    double steal_disturbs_pct = detect::kStealDisturbsPct;
};

// Whether a level's generator kept its rate. Late sends with a connection
// free are the generator's, not the system's: a generator short of CPU
// (the engine's generator_saturated) limited the level, which ends the
// search; without that, at least kLateSendsDisturb of them and over 1 % of
// those offered are a stall on this machine that disturbed the level (run
// once more); fewer are a hiccup (one late send at 50/s is 2 %).
inline constexpr std::uint64_t kLateSendsDisturb = 10;
struct GeneratorVerdict {
    std::string limited;    // how the generator failed to keep the rate; "" if it kept it
    std::string disturbed;  // how a stall on this machine spoilt the level; ""
};
GeneratorVerdict judge_generator(const load::LoadResult& r);

}  // namespace stand::scenario
