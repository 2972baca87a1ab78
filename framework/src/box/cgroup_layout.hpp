// Which cgroup interface this machine offers and where: cgroup v2 with the
// controllers enabled at its root, the v1 per-controller hierarchies, or
// nothing usable. Also whether systemd is PID 1 (the transient-slice
// backend is only reported, never used: boxes are made directly in cgroupfs).
#pragma once

#include <boost/json.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stand::box {

enum class CgroupVersion { v1, v2 };

// The v1 controllers a box lives in (cpu and cpuacct are often co-mounted).
inline constexpr std::string_view kV1Controllers[] = {"cpu", "cpuacct", "memory", "cpuset", "pids", "blkio"};
// The v2 controllers a box enables for its groups when the root offers them.
inline constexpr std::string_view kV2Controllers[] = {"cpu", "memory", "cpuset", "pids", "io"};

struct CgroupLayout {
    std::optional<CgroupVersion> backend;  // nullopt: no usable cgroups
    std::optional<std::filesystem::path> v2_root;  // a cgroup2 mount, usable or not
    std::vector<std::string> v2_available;         // its cgroup.controllers
    std::vector<std::string> v2_enabled;           // its cgroup.subtree_control
    std::map<std::string, std::filesystem::path> v1;  // controller -> hierarchy mount
    // The other v1 hierarchies (devices, freezer, name=systemd): a box makes
    // no group there, but a container engine given the box as its cgroup
    // parent does, and those are removed with the box.
    std::vector<std::filesystem::path> v1_foreign;
    bool swap_accounting = false;  // v1 memory.memsw.* or v2 memory.swap.max exist
    std::string pid1;              // /proc/1/comm
    bool systemd_pid1 = false;
    std::vector<std::string> problems;  // why a backend is unusable, read-only mounts

    // One line for logs and reports, e.g. "cgroup v1: cpu /sys/fs/cgroup/cpu, ...".
    std::string describe() const;
    boost::json::object to_json() const;
    // The root a controller's groups are created under (v2: the unified root).
    std::optional<std::filesystem::path> root_of(std::string_view controller) const;
};

// From /proc/self/mounts, the mounted hierarchies' files and /proc/1/comm.
CgroupLayout detect_cgroup_layout();
// The same from given texts (tests): `mounts` in /proc/self/mounts format.
CgroupLayout detect_cgroup_layout(std::string_view mounts, std::string_view pid1_comm);

}  // namespace stand::box
