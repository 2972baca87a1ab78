// `--plugin` on the command line: replaces the plugins of a scenario.
#pragma once

#include "scenario/scenario_model.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace stand::scenario {

// what() starts with "--plugin '<the argument>': ".
class PluginOverrideError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Each element is the value of one --plugin: "[LABEL:]ID", "[LABEL:]ID=CONFIGJSON"
// or "[LABEL:]ID=@file.json" (the config is a JSON object, {} when omitted;
// comments and trailing commas allowed). ID is a plugin id or a path to a .so;
// the label (a table's column, the repetitions' names) is LABEL, else the ID
// (a path's file name). A label given twice is an error.
std::vector<PluginRef> parse_plugin_overrides(const std::vector<std::string>& args);

}  // namespace stand::scenario
