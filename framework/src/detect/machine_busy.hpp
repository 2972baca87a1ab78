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
    double window_s = 0;               // how long the snapshot watched
    // /proc/pressure/cpu "some": the share of the window some task waited
    // for a CPU (the total= stall counter's growth over it), what is judged;
    // avg10, recorded only: a 10 s average that still holds the run's own
    // previous repetition.
    std::optional<double> cpu_pressure_pct;
    std::optional<double> cpu_pressure_avg10;
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

// Busy when, over the snapshot's window before the repetition, the CPUs were
// over 25 % busy, steal over 2 %, or tasks waited for a CPU over 10 % of it.
std::vector<Finding> check_machine(const MachineSnapshot& s, const std::string& scope);

}  // namespace stand::detect
