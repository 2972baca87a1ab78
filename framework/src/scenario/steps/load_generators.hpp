// A load step with "generators": the same load sent from the scenario's
// generator hosts at once (fleetrun/generator_load.hpp: one start instant,
// the open model's rate split, the link plan applied and measured back),
// their histograms merged exactly. The step's record is the
// stand.load-fleet/1 document; its metrics are those of a local load,
// computed from the merged figures (percentiles of the merged histograms;
// client CPU: all generators'), and each generator's trouble (a failure,
// saturation, a late start, a link off its plan) is a finding naming it.
#pragma once

#include "load/load_result.hpp"
#include "load/load_spec.hpp"
#include "scenario/steps/load.hpp"
#include "scenario/steps/rep_context.hpp"

namespace stand::scenario::steps {

// Runs it; throws StepFailure when no generator's figures came back (or
// none could start: nothing was sent then). The result holds the merged
// counters, status counts, latency and service histograms, elapsed time
// and the generators' CPU summed.
load::LoadResult run_from_generators(RepContext& ctx, const Step& s, const LoadStep& l, const load::LoadSpec& spec);

// A load step with "from": "controller" on a fleet host: the same, with the
// controller the one generator (fleetrun/controller_load.hpp: it loads the
// step's URLs, the plugin's endpoint included, from outside the host).
// Needs ctx.env.controller.
load::LoadResult run_from_controller(RepContext& ctx, const Step& s, const LoadStep& l, const load::LoadSpec& spec);

}  // namespace stand::scenario::steps
