// Kernel CPU (and memory node) lists such as "0-3,8": cpuset.cpus,
// /sys/devices/system/cpu/online.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace stand::box {

using CpuSet = std::set<unsigned>;

// nullopt on a syntax error; "" (whitespace only) is the empty set.
std::optional<CpuSet> parse_cpu_list(std::string_view list);
// Canonical form with ranges: {0,1,2,5} -> "0-2,5"; {} -> "".
std::string format_cpu_list(const CpuSet& cpus);
// /sys/devices/system/cpu/online.
std::optional<CpuSet> online_cpus();

}  // namespace stand::box
