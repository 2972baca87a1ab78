// A process's descendants, for leaving nothing running after a check
// (issue 18 D13: a panel outlived `stand compat` when its check failed).
#pragma once

#include <sys/types.h>

#include <vector>

namespace stand::child {

// Every living descendant of `pid` (children first, then theirs), from
// /proc/PID/task/TID/children. Empty when the kernel does not list them.
std::vector<pid_t> descendants_of(pid_t pid);

// SIGKILLs every descendant of `pid` and the process group each leads (a
// child the host spawned in a group of its own takes its group along), then
// reaps those that are this process's own children. `pid` itself is spared.
// Returns how many were killed.
int kill_descendants(pid_t pid);

}  // namespace stand::child
