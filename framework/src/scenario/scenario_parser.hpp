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

// Every step's "plugin" must be the label of a plugin of this run (after
// --plugin replaced the list). Throws ScenarioError naming the step.
void check_step_plugins(const Scenario& s);

}  // namespace stand::scenario
