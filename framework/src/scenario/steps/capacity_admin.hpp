// One level of a capacity search of the panel's admin API (the capacity
// step's "target": "admin_create"): users created through panel.create_user
// at `rate` a second for `dwell`, one call at a time, call i scheduled at
// i / rate; each call's latency counts from its scheduled time, so calls
// that queue behind a slow one are seen. The users are deleted again after
// the level, untimed, so every level starts from the same panel.
#pragma once

#include "scenario/steps/rep_context.hpp"

#include <map>
#include <string>

namespace stand::scenario::steps {

// p50_ms, p90_ms, p95_ms, p99_ms (from the scheduled time), rps (calls answered a
// second), error_pct (calls that failed), late_pct and behind_pct (calls
// started over 1 ms after their scheduled time, % of those scheduled: one
// waited for the one before it). `unanswered`: set when no call got an
// answer from the panel (each failed without one: not STAND_E_BAD_RESPONSE,
// panel.h's "answered, but not as expected"), and why. Throws StepFailure
// when interrupted.
std::map<std::string, double> run_admin_create_level(RepContext& ctx, const Step& s, double rate, Seconds dwell,
                                                     std::size_t level, std::string& unanswered);

}  // namespace stand::scenario::steps
