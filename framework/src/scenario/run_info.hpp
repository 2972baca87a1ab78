// run.json: what a run is (the scenario's plugins, tables, checks, params,
// the plan, the host), written once when the run starts.
#pragma once

#include "scenario/adaptive_reps.hpp"
#include "scenario/run_plan.hpp"
#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

#include <vector>

namespace stand::scenario {

boost::json::object make_run_info(const Scenario& scenario, const std::vector<PlannedRep>& plan,
                                  const AdaptiveReps& adaptive);

}  // namespace stand::scenario
