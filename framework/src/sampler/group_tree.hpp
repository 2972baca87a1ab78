// Counters of a cgroup summed with those of every group below it. A
// container engine given the box as cgroup parent puts each container (and
// its monitor, conmon) in a child group of its own: the box's cgroup.procs
// lists none of their processes, and on v1 an OOM kill counts only in the
// victim's own memory.oom_control. Memory, CPU and pids are hierarchical
// already.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

namespace stand::sampler {

// Lines of cgroup.procs of `dir` and of every group below it; each file
// opened anew (see StatFile::Reopen::each_read). nullopt when `dir`'s own
// file cannot be read.
std::optional<std::uint64_t> count_group_procs(const std::filesystem::path& dir);
// v1: "oom_kill" of memory.oom_control, summed the same way.
std::optional<std::uint64_t> sum_group_oom_kills(const std::filesystem::path& dir);

}  // namespace stand::sampler
