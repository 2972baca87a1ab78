// How traffic_accounting runs (accounting.cpp reads its keys).
#pragma once

#include "scenario/steps/rep_context.hpp"

namespace stand::scenario::steps {

// StepKind::run of traffic_accounting: the panel's counts before, every
// tunnel's one download at once (the many_clients engine), then the polls.
void run_accounting(RepContext& ctx, const Step& s, RepClock::time_point deadline);

}  // namespace stand::scenario::steps
