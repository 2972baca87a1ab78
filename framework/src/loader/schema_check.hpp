// Checks a value against the JSON Schema subset plugins publish (the schemas
// stand/cpp/config_spec.hpp writes: an object of properties with "type",
// "enum", "pattern", "minimum"/"maximum", "oneOf" of "const" and bounds,
// "items", "additionalProperties"), so that a probe job's params are refused
// before a run starts rather than when its step is reached. Keywords outside
// the subset are not checked (the plugin still checks everything itself).
#pragma once

#include <boost/json/value.hpp>

#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace stand::loader {

// One line per problem, "KEY: expected WHAT, got VALUE" (KEY "" for the
// value itself); empty when `value` fits `schema`.
std::vector<std::string> schema_problems(const boost::json::value& value, const boost::json::value& schema);

// A plugin config against the config schema text its descriptor publishes
// (`stand info ID`), so a misspelt key or a wrong type is refused before a
// run rather than by create() in every repetition. A value holding "${" is
// a placeholder the plugin fills in itself (`${data_dir}`): its value is not
// judged, its key is; a schema that is not JSON gives no problems (the compat suite
// speaks to that).
std::vector<std::string> config_problems(const boost::json::object& config, std::string_view schema_text);

}  // namespace stand::loader
