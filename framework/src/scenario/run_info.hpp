// run.json: what a run is (the scenario's plugins, tables, checks, params,
// the plan, the host), written once when the run starts. Plugin configs are
// written with their secrets redacted; secrets.json (mode 0600) keeps what
// --resume needs to start the plugins again.
#pragma once

#include "scenario/adaptive_reps.hpp"
#include "scenario/run_plan.hpp"
#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace stand::scenario {

// `config_schemas[i]`: the config schema of scenario.plugins[i].
boost::json::object make_run_info(const Scenario& scenario, const std::vector<PlannedRep>& plan,
                                  const AdaptiveReps& adaptive, const std::vector<std::string>& config_schemas);

// secrets.json: the plugins with their configs as given, the params, and the
// scenario text (--resume parses it, never the file as it is today).
boost::json::object make_run_secrets(const Scenario& scenario);

}  // namespace stand::scenario
