// Writing a plan's limits into a new box.
#pragma once

#include "box/box_plan.hpp"
#include "box/cgroup_layout.hpp"
#include "box/group_paths.hpp"

#include <string>
#include <vector>

namespace stand::box {

// Throws BoxError when a limit cannot be written or its controller is
// missing. Returns notes on what could not be expressed (v1 without swap
// accounting: swap_max is not applied).
std::vector<std::string> apply_limits(const GroupPaths& paths, const BoxPlan& plan, const CgroupLayout& layout);

}  // namespace stand::box
