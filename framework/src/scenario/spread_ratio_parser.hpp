// The "spread_ratios" of a scenario: how far one metric spreads between the
// systems against how far two metrics lie apart within each system (seed
// 002: the proxies with the pool off against pool off / pool on). Each names
// metrics its steps produce; the report computes them (report/spread_ratio.hpp).
#pragma once

#include "scenario/json_reader.hpp"
#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

#include <vector>

namespace stand::scenario {

// Returns the entries with their defaults filled in, in the form run.json
// stores them: {"title", "across", "within": [numerator, denominator],
// "format"}. Throws ScenarioError naming the place.
boost::json::array parse_spread_ratios(const boost::json::value& v, const JsonPlace& place,
                                       const std::vector<Phase>& phases);

}  // namespace stand::scenario
