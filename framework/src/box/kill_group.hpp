// Killing every process of a box. The processes may have been spawned by
// anyone (plugins' servers fork workers); only the group membership counts.
#pragma once

#include <chrono>
#include <filesystem>
#include <sys/types.h>
#include <vector>

namespace stand::box {

// The union of cgroup.procs over `dirs`.
std::vector<pid_t> group_pids(const std::vector<std::filesystem::path>& dirs);

// SIGKILLs every member (cgroup.kill on v2 when the kernel has it) until all
// of `dirs` are empty, which catches processes forked meanwhile. True when
// empty within `timeout`. Zombies leave cgroup.procs at exit, so this does
// not wait for their parent to reap them.
bool kill_group(const std::vector<std::filesystem::path>& dirs, std::chrono::milliseconds timeout);

}  // namespace stand::box
