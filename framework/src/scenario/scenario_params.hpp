// Scenario parameters: a top-level "params" object of defaults, e.g.
//   "params": {"users": 200, "idle_s": 300}
// and values written as the whole string "${users}" anywhere below, replaced
// by the parameter's JSON value before validation (so "count": "${users}"
// is checked as the number it becomes). `stand run --param users=5` overrides
// a default (the value is parsed as JSON, else taken as a string). An unknown
// name, a parameter without a default or an override of an undeclared one is
// an error naming the file and the JSON path; inside $.plugins an undeclared
// "${x}" is left alone (the plugin's own placeholders, e.g. ${data_dir}).
// Inside $.tables a "${name}" may also stand within a text (a title or a
// label: "panel with ${users} users"), replaced by the value as text.
#pragma once

#include <boost/json.hpp>

#include <filesystem>
#include <map>
#include <string>

namespace stand::scenario {

using ParamOverrides = std::map<std::string, std::string>;
// Where each "${name}" was: its JSON path ("$.phases[1].steps[0].server") and the name.
using ParamSources = std::map<std::string, std::string>;

// Replaces the params in `root` (an object) and removes its "params" key;
// returns the values used (for run.json) and, with `sources`, where each
// went. Throws ScenarioError.
boost::json::object apply_scenario_params(boost::json::value& root, const ParamOverrides& overrides,
                                          const std::filesystem::path& file, ParamSources* sources = nullptr);

}  // namespace stand::scenario
