// Pitfall checks over finished repetitions (seed 004's three ways a disk
// number lied, and the passes that disagree). Each check comes from the
// scenario's "checks" (scenario/check_parser.hpp) and is evaluated per
// plugin on the values of its repetitions, in repetition order.
#pragma once

#include <boost/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace stand::detect {

// plugin -> metric -> one value per finished repetition, in order.
using RunValues = std::map<std::string, std::map<std::string, std::vector<double>>>;

struct CheckOutcome {
    std::string check;   // "cache", "plateau_spread", "plateau_equal", "write_back", "anomalies"
    std::string id;      // finding id when fired: "cache-suspected", "limiter-suspected", ...
    std::string plugin;  // "" when no plugin had the metrics
    std::string status;  // "fired", "clear" or "not evaluated"
    std::string message;
    std::string metric;           // anomalies: the metric
    std::vector<double> values;   // anomalies: the per-pass values

    boost::json::object to_json() const;
};

std::vector<CheckOutcome> evaluate_checks(const boost::json::array& checks, const RunValues& values);

// "526.0 MB/s is 501.6 MiB/s", from a metric ending in .mb_s, .mib_s or
// .iops (with the step's block_size among `metrics`); "" otherwise.
std::string plateau_in_bytes(const std::string& metric, double value,
                             const std::map<std::string, std::vector<double>>& metrics);

}  // namespace stand::detect
