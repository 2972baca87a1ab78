// The "checks" of a scenario: pitfall detectors over the finished
// repetitions (seed 004: a cache read instead of the disk, a QoS limiter's
// plateau, write-back acknowledgement). Each names metrics its steps produce;
// the report evaluates them (detect/result_checks.hpp).
#pragma once

#include "scenario/json_reader.hpp"
#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

namespace stand::scenario {

// Returns the checks with their defaults filled in, in the form run.json
// stores them. Throws ScenarioError naming the place.
boost::json::array parse_checks(const boost::json::value& v, const JsonPlace& place, const std::vector<Phase>& phases);

}  // namespace stand::scenario
