// A plugin config's secrets, by its schema: a property marked "writeOnly":
// true (plugin.h) is a secret at any depth of "properties".
#pragma once

#include <boost/json/object.hpp>

#include <string_view>

namespace stand::loader {

// `config` with the value of every secret property replaced by
// text::kRedacted. A schema that is empty or not JSON leaves it as it is.
boost::json::object redacted_config(const boost::json::object& config, std::string_view schema_json);

// Adds every secret value of `config` (its strings, at any depth) to the
// process's text::secrets(), so that whatever echoes one is scrubbed.
void register_config_secrets(const boost::json::object& config, std::string_view schema_json);

}  // namespace stand::loader
