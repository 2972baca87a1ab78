// Pins the calling thread to a CPU set: the load generator's threads stay on
// the CPUs the placement gave them.
#pragma once

#include <set>

namespace stand::load {

// 0, or the errno (EINVAL for a CPU beyond CPU_SETSIZE). An empty set does nothing.
int pin_this_thread(const std::set<unsigned>& cpus);

}  // namespace stand::load
