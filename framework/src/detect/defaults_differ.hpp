// defaults-differ (seed 002's pitfall #10: the proxies' ranking was the
// ranking of their defaults). Over the finished repetitions of a run: when
// the compared systems report different values for a setting the scenario
// did not set, the comparison ranks that setting as much as the systems.
//
// What a system reports: the effective_defaults() after each configure step
// (rep "proxy_defaults"), compared step by step; without any, the
// "defaults" of its lifecycle facts. What the scenario set: the step's and
// earlier configure steps' knobs (rep "proxy_defaults_set"), a top-level key
// of the plugin's config in the scenario of the same name, or the system's
// own "<key>_source": "knob". Not settings: "version", and the keys that
// explain another ("*_source", "*_note", "*_means", "upstream_pool"). A
// difference that stays the same over several configure steps is one
// finding naming them all.
#pragma once

#include "detect/finding.hpp"

#include <boost/json.hpp>

#include <vector>

namespace stand::detect {

// `reps` in run order; `plugins` as run.json has them ([{id, label, config}]).
std::vector<Finding> check_defaults_differ(const std::vector<boost::json::object>& reps,
                                           const boost::json::array& plugins);

}  // namespace stand::detect
