// Parses the text of a scenario file: comments and trailing commas are
// allowed, a key given twice in one object is an error, and a syntax error
// names its line and column.
#pragma once

#include <boost/json.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace stand::scenario {

// Throws ScenarioError.
boost::json::value parse_json_text(std::string_view text, const std::filesystem::path& file_for_messages);

// Why a number read as a double from `text` is refused ("expected ...,
// got TEXT"), or "" when it is fine: beyond a double's range, subnormal, or
// an integer literal beyond 64 bits.
std::string number_refusal(double value, std::string_view text);

}  // namespace stand::scenario
