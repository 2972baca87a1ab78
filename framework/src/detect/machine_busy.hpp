// machine-busy: the machine was not quiet before a repetition started.
#pragma once

#include "detect/finding.hpp"

#include <chrono>
#include <optional>
#include <vector>

namespace stand::detect {

struct MachineSnapshot {
    double load1 = 0;                  // /proc/loadavg
    unsigned cpus = 1;
    double steal_pct = 0;              // /proc/stat over the window
    double busy_pct = 0;               // non-idle share of all CPUs over the window
    std::optional<double> cpu_pressure_avg10;  // /proc/pressure/cpu "some avg10"
    boost::json::object to_json() const;
};

// The machine's CPU time so far (/proc/stat, in ticks), and the share the
// hypervisor stole between two reads (% of all CPU time; 0 when none passed).
struct CpuTimes {
    unsigned long long idle = 0, total = 0, steal = 0;
};
CpuTimes read_cpu_times();
double steal_pct_between(const CpuTimes& a, const CpuTimes& b);
// Over 2 %: the cpu-steal finding, and a disturbed capacity level.
inline constexpr double kStealDisturbsPct = 2;

// Reads /proc over `window` (blocking for that long).
MachineSnapshot snapshot_machine(std::chrono::milliseconds window = std::chrono::milliseconds(500));

// Busy when the CPUs were over 25 % busy, steal over 2 %, or CPU pressure
// avg10 over 10 before anything of the run was started.
std::vector<Finding> check_machine(const MachineSnapshot& s, const std::string& scope);

}  // namespace stand::detect
