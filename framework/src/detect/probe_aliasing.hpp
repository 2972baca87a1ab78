// probe-aliasing (seed 001's pitfall #12): a periodic probe whose interval
// is near a multiple of the box's CFS period meets the same phase of every
// period, so on a throttled box it sees always the throttled part of the
// period, or never. Flagged when the box was throttled during the step and
// the interval lies within 5 % of the period from a multiple of it, unless
// the probes' phase still drifted through one whole period over the step:
// 97 ms against 100 ms moves 3 ms a probe and sweeps the period every 33
// probes (3.2 s), which is the seed's fix; 100 ms never moves.
#pragma once

#include "detect/finding.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace stand::detect {

struct PeriodicProbe {
    std::string what;         // "the small request", "each client's request"
    double interval_ms = 0;
    std::uint64_t probes = 0;  // sent over the step
};

struct StepThrottling {
    std::uint64_t period_us = 0;  // the box's cpu.cfs_period_us / cpu.max period
    std::uint64_t periods = 0, throttled_periods = 0, throttled_us = 0;  // over the step
};

std::optional<Finding> check_probe_aliasing(const PeriodicProbe& probe, const StepThrottling& box,
                                            const std::string& scope);

}  // namespace stand::detect
