// Runs one repetition of one plugin: a fresh plugin worker, every phase's
// steps in order, each bounded by its timeout; the repetition's JSON is
// rewritten after every step. A failing step ends the repetition (status
// "failed", the step and the reason named), never the run.
#pragma once

#include "scenario/rep_environment.hpp"

#include <boost/json.hpp>

namespace stand::scenario {

// Returns the final repetition JSON ("status": ok | failed | interrupted).
boost::json::object run_repetition(RepEnvironment& env);

}  // namespace stand::scenario
