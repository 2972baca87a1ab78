// Syntax of the string values in a scenario file that have one.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace stand::scenario {

// Phase and step names: 1..64 of A-Z a-z 0-9 _ - (a step name prefixes its
// metrics, "<name>.rps", so it has no dot).
bool is_valid_name(std::string_view name);

// A table cell format: one printf conversion of a double, as the report
// renders it (text/number_format.hpp): "%.2f", "%.1f ms", "%.0f%%".
bool is_double_format(std::string_view format);

// "Name: value": an HTTP token, a colon, a value without control characters.
bool is_valid_header(std::string_view header);

// A plugin id (loader rules) or a path to a plugin file (contains '/' or ends in ".so").
bool is_plugin_reference(std::string_view id_or_path);

// A plugin's label names its column, its repetitions' files (reps/<label>_r1.json)
// and cgroups: 1..64 letters, digits, '_', '-' and '.', not starting with '.'.
bool is_valid_label(std::string_view label);
// The label of a plugin given without one: its id, or a path's file name
// without ".so" ("./build/x/p.so" -> "p").
std::string default_label(std::string_view id_or_path);

}  // namespace stand::scenario
