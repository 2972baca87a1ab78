// Moves a running process (all its threads) into a box for a while and back
// where it came from. A probe measures inside the plugin worker itself, so
// for a run_probe step the worker joins the measured box: its I/O meets the
// box's io throttle and its CPU shows in the box's samples.
#pragma once

#include "box/cgroup_layout.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace stand::box {

// The cgroup directories `pid` is in now, one per mounted hierarchy, from
// the text of /proc/<pid>/cgroup ("4:cpu,cpuacct:/a/b", "0::/a").
std::vector<std::filesystem::path> groups_of(std::string_view proc_cgroup_text, const CgroupLayout& layout);

class ProcessPlacement {
public:
    // Records where `pid` is, then writes it to each dir's cgroup.procs.
    // Throws BoxError naming the file when a move fails (after moving back).
    ProcessPlacement(pid_t pid, const std::vector<std::filesystem::path>& into);
    ~ProcessPlacement();  // moves the process back; best effort (it may be gone)
    ProcessPlacement(const ProcessPlacement&) = delete;
    ProcessPlacement& operator=(const ProcessPlacement&) = delete;

private:
    void move_back() noexcept;
    pid_t pid_;
    std::vector<std::filesystem::path> origin_;
};

}  // namespace stand::box
