// The metric names a step produces (documented in scenarios/README.md):
// report tables may only name these.
#pragma once

#include "scenario/scenario_model.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace stand::scenario {

// "<name>.rps", ...; a run_probe step gives the pattern "<name>.*" (whatever
// the probe reports); install/start/stop/wipe/sleep give none.
std::vector<std::string> metrics_produced(const Step& step);

// Whether `metric` is one of metrics_produced(step), "<name>.*" matching any
// non-empty suffix.
bool produces_metric(const Step& step, std::string_view metric);

// Whether a step of `phases` produces `metric`.
bool phases_produce_metric(const std::vector<Phase>& phases, std::string_view metric);

// Why `metric` is unknown, naming what would be accepted instead:
// "step load1 produces load1.rps, ..." or "no step is named ...; steps with metrics: ...".
std::string unknown_metric_hint(std::string_view metric, const std::vector<Phase>& phases);

}  // namespace stand::scenario
