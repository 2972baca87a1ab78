// Plan against reality: every way the effective settings differ from a plan,
// as sentences for the report ("cpuset: planned all CPUs (0-1), effective 1").
// A run must stop when this is not empty.
#pragma once

#include "box/box_plan.hpp"
#include "box/effective_settings.hpp"

#include <string>
#include <vector>

namespace stand::box {

// What the plan does not set must be unlimited (and the cpuset: all online
// CPUs). A limit the plan sets but that cannot be read back is drift too;
// a limit on an ancestor tighter than the plan is drift.
std::vector<std::string> drift(const BoxPlan& plan, const EffectiveSettings& effective);

}  // namespace stand::box
