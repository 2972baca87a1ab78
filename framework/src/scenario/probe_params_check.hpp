// Validation of every run_probe step before a run: each probe plugin is
// created once in a worker (with the scenario's config) and asked for its
// jobs (stand.probe/1 list_jobs); a job it does not have, or params its
// job's params_schema refuses, is a ScenarioError naming the step, before
// any repetition starts (issue 18: validation is the only gate).
#pragma once

#include "loader/plugin_search.hpp"
#include "scenario/scenario_model.hpp"

#include <filesystem>

namespace stand::scenario {

// `scratch_dir`: the workers' run dir (removed by the caller).
void check_probe_params(const Scenario& scenario, const loader::PluginSearch& search,
                        const std::filesystem::path& scratch_dir);

}  // namespace stand::scenario
