// How a load step runs (its keys are read in load.cpp).
#pragma once

#include "scenario/steps/rep_context.hpp"

namespace stand::scenario::steps {

// StepKind::run of load: the generator against the links, the box's window,
// the proxy's side (backend connections, handshakes), the TLS session served.
void run_load(RepContext& ctx, const Step& s, RepClock::time_point deadline);

}  // namespace stand::scenario::steps
