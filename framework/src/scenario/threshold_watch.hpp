// The thresholds marked "abort_on_fail", watched while the run goes on:
// after each finished repetition, whether one is already crossed for good
// (detect::crossed_for_good), so the engine stops the run there and keeps
// everything measured.
#pragma once

#include "detect/thresholds.hpp"
#include "scenario/run_plan.hpp"
#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stand::scenario {

class ThresholdWatch {
public:
    ThresholdWatch(const Scenario& scenario, const std::vector<PlannedRep>& plan);

    // A repetition of plugin `plugin` (its index in the scenario) finished
    // (reps/<key>.json); returns why the run stops, naming the threshold,
    // the plugin and the values, or nullopt.
    std::optional<std::string> record(std::size_t plugin, const boost::json::object& rep);

private:
    const Scenario& scenario_;
    std::vector<std::size_t> planned_;  // per plugin: its planned repetitions
    std::map<std::pair<std::size_t, std::size_t>, std::vector<detect::RepValue>> values_;  // (threshold, plugin)
};

}  // namespace stand::scenario
