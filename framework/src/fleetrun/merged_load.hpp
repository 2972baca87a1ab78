// The results of one load's generators (fleetrun/generator_load.hpp) as one
// (schema "stand.load-fleet/1"): request counters, status counts, errors
// and the per-second series summed; the latency and service histograms
// merged slot by slot (exact: percentiles of the union, never averaged);
// each generator's own result (its CPU, its saturation flag, its warnings)
// kept under its name, and anything one generator got wrong (a failure,
// saturation, a late start) a warning naming it.
#pragma once

#include "fleetrun/generator_load.hpp"

#include <boost/json/object.hpp>

namespace stand::fleetrun {

// Of the generators whose histograms came back.
load::HistogramSet merged_histograms(const GeneratorLoadResult& result);

boost::json::object merged_load_json(const GeneratorLoadResult& result, const load::HistogramSet& merged);

}  // namespace stand::fleetrun
