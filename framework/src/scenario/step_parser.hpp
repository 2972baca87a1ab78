// One entry of a phase's "steps": its kind, kind fields, name and timeout.
#pragma once

#include "scenario/json_reader.hpp"
#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

#include <cstddef>
#include <map>
#include <string>

namespace stand::scenario {

// Counts steps of each kind across the whole scenario, in file order; the
// n-th step of a kind is named "<kind><n>" unless it has a name.
using KindCounter = std::map<std::string, std::size_t, std::less<>>;

// Throws ScenarioError. `allow_remote` permits non-loopback load URLs.
Step parse_step(const boost::json::value& v, const JsonPlace& place, KindCounter& counter, bool allow_remote);

}  // namespace stand::scenario
