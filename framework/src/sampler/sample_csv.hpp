// Samples as CSV, one row per sample, for publishing raw data next to the
// aggregates. Columns, in order:
//   t_s            seconds since `epoch` on the monotonic clock
//   mem_current, mem_peak, anon, file, inactive_file, shmem, kernel   bytes
//   procs, tasks   processes (cgroup.procs lines), tasks (pids.current)
//   cpu_usage_us, nr_periods, nr_throttled, throttled_us   cumulative
//   events_max, events_oom, events_oom_kill                cumulative
//   <p>_some_avg10, <p>_some_total_us for p in cpu, memory, io, host_cpu,
//     host_memory, host_io   (percent; cumulative microseconds)
// An empty cell means the field could not be read (see sample.hpp), not 0.
#pragma once

#include "sampler/sample.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace stand::sampler {

std::string samples_csv_header();
void write_samples_csv(std::ostream& out, const std::vector<Sample>& samples, Clock::time_point epoch);

}  // namespace stand::sampler
