// Removing what crashed runs left behind: every <root>/stand/<run group>
// whose owner process (pid + start time in the name, see group_name.hpp) is
// gone. Processes still inside are SIGKILLed first (a server started by a
// crashed run would otherwise keep running in its box).
#pragma once

#include "box/cgroup_layout.hpp"

#include <string>
#include <vector>

namespace stand::box {

struct StaleCleanup {
    std::vector<std::string> removed;  // directories removed
    std::vector<std::string> failed;   // "<dir>: why"
    std::size_t killed = 0;            // processes killed
};

// Groups of live owners and names not made by stand are left alone.
StaleCleanup cleanup_stale_boxes(const CgroupLayout& layout);

}  // namespace stand::box
