// The live figures as metric families, every name prefixed stand_
// (docs/live-metrics.md lists them). Labels carry only the scenario's name,
// the plugin's label, repetition numbers and phase, step and kind names:
// never a plugin's config.
#pragma once

#include "live/live_figures.hpp"
#include "live/metric_text.hpp"

#include <vector>

namespace stand::live {

std::vector<MetricFamily> live_metric_families(const LiveSnapshot& snapshot);

}  // namespace stand::live
