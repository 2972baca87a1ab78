// JSON has no infinity and no NaN: what stand writes holds finite numbers
// only. A builder that knows why a number may be beyond a double writes it
// with finite_or_null() and says why beside it; null_non_finite() is the
// guard a document passes before it is written, so that nothing a builder
// missed reaches a file or standard output as Infinity or NaN (Boost.JSON
// writes those, and no JSON reader takes them back).
#pragma once

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <vector>

namespace stand::text {

// `v` when finite, else null with `non_finite` set.
boost::json::value finite_or_null(double v, bool& non_finite);
boost::json::value finite_or_null(const std::optional<double>& v, bool& non_finite);
// For a caller whose null says enough (an unbounded width).
boost::json::value finite_or_null(const std::optional<double>& v);

// Replaces every non-finite number in `doc` by null; returns where each was
// ("summary.nginx.rps.median", "spread_ratios[0].quotient").
std::vector<std::string> null_non_finite(boost::json::value& doc);

// `doc` as JSON text, every non-finite number in it written as null.
std::string finite_json_text(boost::json::value doc);

}  // namespace stand::text
