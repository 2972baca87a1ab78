// How revoke_under_traffic runs (revoke.cpp reads its keys).
#pragma once

#include "scenario/steps/rep_context.hpp"

namespace stand::scenario::steps {

// StepKind::run of revoke_under_traffic: every tunnel on a thread of its
// own, the revocation and the probes of the revoked credential here.
void run_revoke(RepContext& ctx, const Step& s, RepClock::time_point deadline);

}  // namespace stand::scenario::steps
