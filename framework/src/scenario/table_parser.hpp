// The "tables" of a scenario: rows must name metrics its steps produce.
#pragma once

#include "scenario/json_reader.hpp"
#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

#include <vector>

namespace stand::scenario {

// Throws ScenarioError.
std::vector<Table> parse_tables(const boost::json::value& v, const JsonPlace& place, const std::vector<Phase>& phases);

}  // namespace stand::scenario
