// A scenario's "spread_ratios" (scenarios/README.md): how far one metric
// spreads between the systems against how far two metrics lie apart within
// each system, from the medians of the finished repetitions. Seed 002's
// finding in numbers: the proxies with the pool off differ less from each
// other than each differs from itself with the pool on.
//
// Computed only from complete data: every plugin of the run, every
// repetition the run planned finished, each with all three metrics;
// otherwise the result lists why not and carries no numbers.
#pragma once

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace stand::report {

struct SpreadSystem {
    std::string plugin;
    double across = 0;       // median of the `across` metric
    double numerator = 0;    // median of within[0]
    double denominator = 0;  // median of within[1]
    double within = 0;       // numerator / denominator
};

struct SpreadRatio {
    std::string title, across_metric, numerator_metric, denominator_metric, format;
    // Why the numbers below could not be computed; empty when they were.
    std::vector<std::string> incomplete;
    std::vector<SpreadSystem> systems;  // in the run's plugin order
    double across_spread = 0;           // largest `across` median / smallest
    std::string across_max_plugin, across_min_plugin;
    double within_median = 0, within_min = 0, within_max = 0;  // over the systems
    std::string within_min_plugin, within_max_plugin;
    // (within_median - 1) / (across_spread - 1): how many times the
    // difference within a system exceeds the difference between systems
    // (each a ratio's excess over 1, "+165 %"). Absent, with the reason in
    // no_quotient, when the systems do not differ or the median within
    // ratio is not above 1.
    std::optional<double> quotient;
    std::string no_quotient;
};

// `spec` is one normalized entry of run.json's "spread_ratios"; `run` is
// run.json (its "plugins", "plan" and "adaptive_repetitions" say what
// complete means); `reps` the repetitions on disk.
SpreadRatio compute_spread_ratio(const boost::json::object& spec, const boost::json::object& run,
                                 const std::vector<boost::json::object>& reps);

// Every entry of run.json's "spread_ratios" as a summary.md section (empty
// without any) and as results.json's "spread_ratios".
std::string spread_ratios_markdown(const boost::json::object& run, const std::vector<boost::json::object>& reps);
boost::json::array spread_ratios_json(const boost::json::object& run, const std::vector<boost::json::object>& reps);

}  // namespace stand::report
