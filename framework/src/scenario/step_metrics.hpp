// The metric names a step produces (its kind's declarations, docs/steps.md):
// report tables may only name these, and a step may emit only these.
#pragma once

#include "scenario/json_reader.hpp"
#include "scenario/scenario_model.hpp"

#include <boost/json/object.hpp>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace stand::scenario {

// "<name>.rps", ...; a run_probe step gives the pattern "<name>.*" (whatever
// the probe reports); install/start/stop/wipe/sleep give none.
std::vector<std::string> metrics_produced(const Step& step);

// Whether `metric` is one of metrics_produced(step), "<name>.*" matching any
// non-empty suffix, "<N>" in one any number ("<name>.level<N>.rps").
bool produces_metric(const Step& step, std::string_view metric);

// The metrics of `metrics` that are neither in `before` nor declared by
// `step`: what a step emitted beyond its kind's declarations.
std::vector<std::string> undeclared_metrics(const Step& step, const boost::json::object& metrics,
                                            const std::set<std::string>& before);

// Whether a step of `phases` produces `metric`.
bool phases_produce_metric(const std::vector<Phase>& phases, std::string_view metric);

// Why `metric` is unknown, naming what would be accepted instead:
// "step load1 produces load1.rps, ..." or "no step is named ...; steps with metrics: ...".
std::string unknown_metric_hint(std::string_view metric, const std::vector<Phase>& phases);

// `v` as the name of a metric a step of `phases` produces; throws
// ScenarioError at `place` naming the metrics that would be accepted.
std::string expect_produced_metric(const boost::json::value& v, const JsonPlace& place, const std::vector<Phase>& phases);

}  // namespace stand::scenario
