// What a probe's run() returned (stand.probe/1), read strictly:
//   {"metrics": {"iops": 1.0, ...}, "latency_histogram_ns": [[value, count], ...],
//    "facts": {...}, "notes": ["..."]}
// The host, not the probe, turns the latency histogram into percentiles, so
// every probe's p99 is computed the same way (HdrHistogram, 3 digits).
#pragma once

#include <boost/json.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace stand::scenario {

struct ProbeResult {
    std::map<std::string, double> metrics;  // the probe's metrics plus lat_p50_us .. lat_p999_us
    boost::json::object facts;
    std::vector<std::string> notes;
};

// Throws std::invalid_argument naming the key ("latency_histogram_ns[3]: ...")
// for anything outside the shape above; a metric named like one the host
// computes (lat_p50_us ...) is refused when a histogram is given.
ProbeResult read_probe_result(const boost::json::value& output);

}  // namespace stand::scenario
