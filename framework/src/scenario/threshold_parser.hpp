// The "thresholds" of a scenario: objectives a plugin's results must meet
// ("subscription p95 below 500 ms on every repetition"), evaluated per
// plugin after the run (detect/thresholds.hpp) and, with "abort_on_fail",
// after each of its repetitions, stopping the run once one is crossed for good.
#pragma once

#include "scenario/json_reader.hpp"
#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

namespace stand::scenario {

// Returns the thresholds with their defaults filled in, in the form run.json
// stores them: {name, metric, bound ("below"/"above"), limit, on ("median",
// "every_rep" or "ci"), abort_on_fail, plugins}. Throws ScenarioError naming
// the place.
boost::json::array parse_thresholds(const boost::json::value& v, const JsonPlace& place, const std::vector<Phase>& phases);

}  // namespace stand::scenario
