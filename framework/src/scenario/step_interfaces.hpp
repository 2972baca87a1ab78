// Which plugin interfaces a scenario's steps call, checked against what each
// plugin declares before anything runs (`stand run` and `run --check`): a
// step the plugin cannot run is refused by name, not after every phase
// before it.
#pragma once

#include "scenario/scenario_model.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace stand::scenario {

// The interfaces this configured step calls on its plugin (its kind's
// interfaces_of, or its kind's interface); empty for the host's own work.
std::vector<std::string_view> step_interfaces(const Step& step);

// Throws ScenarioError naming the first step (nested ones too), plugin and
// interface where a step calls an interface its plugin does not declare.
// `declared`: each plugin's label -> the interfaces it declares.
void check_step_interfaces(const Scenario& scenario, const std::map<std::string, std::vector<std::string>>& declared);

}  // namespace stand::scenario
