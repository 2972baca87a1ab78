// Runs one repetition of one plugin: a fresh plugin worker, every phase's
// steps in order, each bounded by its timeout; the repetition's JSON is
// rewritten after every step. A failing step ends the repetition (status
// "failed", the step and the reason named), never the run.
#pragma once

#include "scenario/rep_environment.hpp"

#include <boost/json.hpp>

namespace stand::scenario {

class RepContext;

// One step by its kind (StepKind::run), bounded by its timeout, its metrics
// checked against the kind's declarations; recorded in the record's "steps".
// Throws StepFailure.
void run_step(RepContext& ctx, const Step& s);

// Returns the final repetition JSON ("status": ok | failed | interrupted).
boost::json::object run_repetition(RepEnvironment& env);

}  // namespace stand::scenario
