// Validation of every run_probe step before a run: each probe plugin is
// created once in a worker (with the scenario's config) and asked for its
// jobs (stand.probe/1 list_jobs); a job it does not have, or params its
// job's params_schema refuses, is a ScenarioError naming the step, before
// any repetition starts (issue 18: validation is the only gate).
#pragma once

#include "loader/plugin_search.hpp"
#include "scenario/scenario_model.hpp"

#include <atomic>
#include <filesystem>
#include <stdexcept>

namespace stand::scenario {

// A stop signal during the checks: nothing was measured (exit 130).
class StoppedBeforeRun : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// `scratch_dir`: the workers' run dir (removed by the caller). Once
// `*interrupted` is set, the worker is stopped (and killed with what it
// started within its grace) and StoppedBeforeRun is thrown. A plugin whose
// create() refuses its config is a text::UserError naming it; one that
// crashes or hangs in it too, saying so.
void check_probe_params(const Scenario& scenario, const loader::PluginSearch& search,
                        const std::filesystem::path& scratch_dir, const std::atomic<bool>* interrupted = nullptr);

}  // namespace stand::scenario
