// How a load step runs (its keys are read in load.cpp), and the parts of it
// another step measuring load reuses (the capacity search's levels).
#pragma once

#include "load/load_engine.hpp"
#include "scenario/steps/load.hpp"
#include "scenario/steps/rep_context.hpp"

#include <functional>
#include <string>

namespace stand::scenario::steps {

// StepKind::run of load: the generator against the links, the box's window,
// the proxy's side (backend connections, handshakes), the TLS session served.
void run_load(RepContext& ctx, const Step& s, RepClock::time_point deadline);

// Where a load's metrics go: (suffix, value), e.g. ("p95_ms", 12.5).
using MetricSink = std::function<void(const std::string& suffix, double value)>;

// What load `l` of step `s` sends: its links, model, rate, connections.
load::LoadSpec load_spec(RepContext& ctx, const Step& s, const LoadStep& l);

// One load from this machine, measured as a load step measures it (its
// metrics through `put`, the box's window recorded as `label`, the load
// detectors' findings scoped with `label`), but not recorded under loads.
// `label` names it in the live status too ("sub_cap at 480/s").
load::LoadResult measure_load_here(RepContext& ctx, const Step& s, const LoadStep& l, const load::LoadSpec& spec,
                                   const std::string& label, const MetricSink& put);

}  // namespace stand::scenario::steps
