// The settings a box really has, read back from the kernel after creation
// (and whenever a result is recorded), so numbers never come with a plan
// that silently did not hold. A limit on an ancestor group binds too, so the
// tightest one above the box is reported as well.
#pragma once

#include "box/box_plan.hpp"
#include "box/group_paths.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace stand::box {

// "No limit" ("max", v1 -1 or its huge memory sentinel). nullopt = unknown.
inline constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();

struct EffectiveSettings {
    std::string backend;  // "cgroup v1" / "cgroup v2"
    std::vector<std::string> dirs;

    std::optional<std::uint64_t> cpu_quota_us;   // v1 cpu.cfs_quota_us, v2 cpu.max
    std::optional<std::uint64_t> cpu_period_us;
    std::optional<std::uint64_t> memory_max;     // v1 memory.limit_in_bytes, v2 memory.max
    std::optional<std::uint64_t> memory_high;    // v2 memory.high
    std::optional<std::uint64_t> swap_max;       // v2 memory.swap.max; v1 memsw - limit
    std::optional<std::uint64_t> pids_max;       // pids.max
    // Canonical CPU/node lists ("0-1"). Effective: v1 cpuset.effective_cpus,
    // v2 cpuset.cpus.effective (what the tasks may really use).
    std::optional<std::string> cpus, cpus_effective, mems, mems_effective;
    std::optional<std::string> online_cpus;  // /sys/devices/system/cpu/online
    std::optional<IoLimit> io;               // for the planned io limit's device

    struct AncestorLimit {
        std::string dir;
        double value;  // vCPU or bytes
    };
    std::optional<AncestorLimit> ancestor_vcpu;        // tightest quota/period above the box
    std::optional<AncestorLimit> ancestor_memory_max;  // tightest memory limit above the box

    std::vector<std::string> notes;

    // quota / period; +inf when unlimited; nullopt when unknown.
    std::optional<double> vcpu() const;
    boost::json::object to_json() const;
};

EffectiveSettings read_effective(const GroupPaths& paths);

}  // namespace stand::box
