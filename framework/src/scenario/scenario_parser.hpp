// Reads and strictly validates a scenario file (format: scenarios/README.md).
// Nothing is measured from a file that does not pass.
#pragma once

#include "scenario/scenario_error.hpp"
#include "scenario/scenario_model.hpp"
#include "scenario/scenario_params.hpp"

#include <filesystem>
#include <string_view>

namespace stand::scenario {

// Both throw ScenarioError; messages name `file` as given.
// `params` override the file's "params" defaults (scenario_params.hpp).
Scenario parse_scenario_file(const std::filesystem::path& file, const ParamOverrides& params = {});
Scenario parse_scenario_text(std::string_view text, const std::filesystem::path& file_for_messages,
                             const ParamOverrides& params = {});

// Whether a load step names the scenario's "generators".
bool uses_generators(const Scenario& s);

// What depends on the plugins of this run (after --plugin replaced the list):
// every step's "plugin" must be the label of one, and with adaptive
// repetitions a step producing the rule's metric must run for each. Throws
// ScenarioError naming the step or $.repetitions.until.metric.
void check_step_plugins(const Scenario& s);

}  // namespace stand::scenario
