// How the tunnel steps run (their keys are read in tunnel.cpp): the
// Hysteria 2 client against a created user's link (or the given one), the
// box's window, and what disrupted the tunnel.
#pragma once

#include "scenario/steps/rep_context.hpp"

namespace stand::scenario::steps {

// StepKind::run of tunnel_throughput: one tunnel on its own thread, the
// `during` step alongside it on this one.
void run_tunnel(RepContext& ctx, const Step& s, RepClock::time_point deadline);
// StepKind::run of many_clients: every client's link first (timed apart),
// then the clients over the ramp.
void run_many_clients(RepContext& ctx, const Step& s, RepClock::time_point deadline);

}  // namespace stand::scenario::steps
