// What the measured box grants in CPU, from its effective settings as a
// repetition records them ("box" of a rep: box::EffectiveSettings::to_json).
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <optional>

namespace stand::detect {

struct BoxCpu {
    // CPUs the box may use at once: quota / period (or a tighter ancestor's),
    // at most its effective cpuset; nullopt: no limit known.
    std::optional<double> vcpu;
    std::uint64_t period_us = 0;  // its CFS period; 0: unknown
};

BoxCpu box_cpu_of(const boost::json::value* box);

}  // namespace stand::detect
