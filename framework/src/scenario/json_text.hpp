// Parses the text of a scenario file: comments and trailing commas are
// allowed, a key given twice in one object is an error, and a syntax error
// names its line and column.
#pragma once

#include <boost/json.hpp>

#include <filesystem>
#include <string_view>

namespace stand::scenario {

// Throws ScenarioError.
boost::json::value parse_json_text(std::string_view text, const std::filesystem::path& file_for_messages);

}  // namespace stand::scenario
