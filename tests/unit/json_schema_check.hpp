// Checks a JSON document against a JSON Schema (draft-07), as far as the
// published Traefik schemas in tests/data/traefik/ and the plugins' config
// schemas need: type, properties, additionalProperties, patternProperties,
// required, items, minItems, minimum, maximum, oneOf, enum, const, pattern
// and local $ref. A keyword it does not know is
// reported as a problem, so nothing in a schema is skipped silently.
#pragma once

#include <boost/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace stand::test {

// One line per problem ("entryPoints.stand.adress: not allowed"); empty when
// `doc` satisfies `schema`.
std::vector<std::string> json_schema_problems(const boost::json::value& doc, const boost::json::object& schema);

boost::json::object read_json_file(const std::filesystem::path& path);

}  // namespace stand::test
