// What every disk probe reports of a run, by the same formulas and under
// the same keys, so that its numbers and another probe's can stand side by
// side: the metrics, the latency histogram and the test file's facts.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <stand/kits/probe/mount_info.hpp>

namespace stand_probe_kit {

struct DiskMetrics {
    double mb_s = 0;   // bytes/s / 1e6
    double mib_s = 0;  // bytes/s / 2^20
    double iops = 0;
    double lat_mean_us = 0;
    std::optional<double> lat_max_us;  // when the probe saw every I/O's latency
    double cpu_s = 0;    // the probe's own CPU time while measuring
    double cpu_pct = 0;  // of `seconds`
    double cpu_us_per_io = 0;
    std::uint64_t ios = 0;
    double seconds = 0;
};

// The metrics of `ios` I/Os moving `bytes` in `seconds` (> 0), with
// `cpu_s` of CPU time; lat_max_us unset.
DiskMetrics disk_metrics(std::uint64_t bytes, std::uint64_t ios, double seconds, double lat_mean_ns, double cpu_s);

// The job as it ran.
struct DiskJobShape {
    std::uint32_t block_size = 0;
    std::uint32_t queue_depth = 0;
    std::uint32_t jobs = 0;  // threads
    std::uint64_t size_mib = 0;
};

// {mb_s, mib_s, iops, lat_mean_us, [lat_max_us], cpu_s, cpu_pct,
//  cpu_us_per_io, ios, seconds, block_size, queue_depth, jobs, size_mib}
boost::json::object metrics_json(const DiskMetrics& m, const DiskJobShape& shape);

// latency_histogram_ns from [value_ns, count] buckets, ascending.
boost::json::array latency_histogram(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& buckets);

// Adds filesystem, mount, device, dir and file, in that order.
void add_test_file_facts(boost::json::object& facts, const MountInfo& mount, const std::string& dir,
                         const std::string& file);

}  // namespace stand_probe_kit
