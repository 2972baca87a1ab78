// Statistics over the samples of one time window (a phase of a run):
//   gauges (memory fields, working set, procs, tasks): mean, max, last;
//   CPU % of one CPU = delta usage / delta t x 100 between the first and the
//     last sample (200 = two CPUs busy), plus the same per sampling interval;
//   counter deltas: CFS periods, throttled periods and time, memory events;
//   pressure: stall time delta and its share of the window (delta total /
//     delta t x 100), and the largest avg10 seen.
// Working set = mem_current - inactive_file (what cannot be reclaimed easily).
// Fewer than 2 samples is an error: nothing can be said about a rate.
#pragma once

#include "sampler/sample.hpp"

#include <boost/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace stand::sampler {

class WindowError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct GaugeStats {
    double mean = 0;
    std::uint64_t max = 0;
    std::uint64_t last = 0;
    std::size_t n = 0;  // samples that had the field
};

struct PressureStats {
    std::optional<std::uint64_t> stall_us;  // some total, last - first
    std::optional<double> stall_pct;        // stall_us / window x 100
    std::optional<double> avg10_max;
};

struct WindowStats {
    Clock::time_point first{}, last{};  // the first and last sample used
    std::size_t samples = 0;
    double duration_s = 0;  // last - first

    std::optional<GaugeStats> mem_current, mem_peak, anon, file, inactive_file, shmem, kernel, working_set, procs,
        tasks;

    std::optional<double> cpu_pct;
    std::vector<double> cpu_pct_series;  // one per consecutive pair with usage

    std::optional<std::uint64_t> periods, throttled_periods, throttled_us;
    std::optional<std::uint64_t> events_max, events_oom, events_oom_kill;

    PressureStats cpu_pressure, memory_pressure, io_pressure;
    PressureStats host_cpu_pressure, host_memory_pressure, host_io_pressure;

    // Bytes as numbers; absent fields as null. `epoch` makes first/last
    // relative seconds ("t0_s", "t1_s").
    boost::json::object to_json(Clock::time_point epoch) const;
};

// `samples` in time order. Throws WindowError when fewer than 2.
WindowStats compute_window(const std::vector<Sample>& samples);

}  // namespace stand::sampler
