// Strict reading of parsed JSON: every read names its place ("$.box.vcpu")
// and throws ScenarioError "expected <what>, got <found>" when it does not fit.
#pragma once

#include "scenario/scenario_error.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stand::scenario {

// A value's file and JSON path.
class JsonPlace {
public:
    explicit JsonPlace(std::filesystem::path file, std::string path = "$")
        : file_(std::move(file)), path_(std::move(path)) {}

    JsonPlace key(std::string_view key) const;  // "$.a" or, for other keys, "$[\"a b\"]"
    JsonPlace index(std::size_t i) const;      // "$.a[3]"
    const std::filesystem::path& file() const noexcept { return file_; }
    const std::string& path() const noexcept { return path_; }

    // "expected <expected>, got <describe(*found)>" or ", got nothing" for a missing value.
    [[noreturn]] void fail(std::string_view expected, const boost::json::value* found) const;
    [[noreturn]] void fail_message(std::string message) const;

private:
    std::filesystem::path file_;
    std::string path_;
};

// A short rendering for messages: scalars as JSON ("16" quoted, 1.5), long
// strings cut, containers as "an object" / "an array" ("{}" / "[]" when empty).
std::string describe_json(const boost::json::value& v);

// "a positive integer", "an integer from 10 to 60000", ...
std::string describe_uint_range(std::uint64_t min, std::uint64_t max);

const boost::json::object& expect_object(const boost::json::value& v, const JsonPlace& place);
const boost::json::array& expect_array(const boost::json::value& v, const JsonPlace& place, bool non_empty);
std::string expect_string(const boost::json::value& v, const JsonPlace& place, bool non_empty);
bool expect_bool(const boost::json::value& v, const JsonPlace& place);
// An integer in [min, max]; an integral double such as 1e3 counts.
std::uint64_t expect_uint(const boost::json::value& v, const JsonPlace& place, std::uint64_t min, std::uint64_t max);
// A finite number in (0, max].
double expect_positive(const boost::json::value& v, const JsonPlace& place, double max);

// An object whose keys must all be in `allowed` (checked on construction, so a
// misspelt key is reported before the missing key it was meant to be).
class ObjectReader {
public:
    // `owner` names the object in the unknown-key message: "box", "a load step".
    ObjectReader(const boost::json::value& v, JsonPlace place, std::string_view owner,
                 const std::vector<std::string_view>& allowed);

    const JsonPlace& place() const noexcept { return place_; }
    JsonPlace at(std::string_view key) const { return place_.key(key); }
    const boost::json::value* find(std::string_view key) const;
    // Throws "<path>.<key>: expected <expected>, got nothing" when absent.
    const boost::json::value& require(std::string_view key, std::string_view expected) const;

    std::optional<std::string> string(std::string_view key) const;  // non-empty
    std::optional<bool> boolean(std::string_view key) const;
    std::optional<std::uint64_t> uint(std::string_view key, std::uint64_t min, std::uint64_t max) const;
    std::optional<double> positive(std::string_view key, double max) const;

private:
    const boost::json::object* object_;
    JsonPlace place_;
};

}  // namespace stand::scenario
