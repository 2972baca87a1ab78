// Checks a value against the JSON Schema subset plugins publish (the schemas
// stand/cpp/config_spec.hpp writes: an object of properties with "type",
// "enum", "pattern", "minimum"/"maximum", "oneOf" of "const" and bounds,
// "items", "additionalProperties"), so that a probe job's params are refused
// before a run starts rather than when its step is reached. Keywords outside
// the subset are not checked (the plugin still checks everything itself).
#pragma once

#include <boost/json/value.hpp>

#include <string>
#include <vector>

namespace stand::loader {

// One line per problem, "KEY: expected WHAT, got VALUE" (KEY "" for the
// value itself); empty when `value` fits `schema`.
std::vector<std::string> schema_problems(const boost::json::value& value, const boost::json::value& schema);

}  // namespace stand::loader
