// The scenario's "thresholds" (scenario/threshold_parser.hpp) evaluated per
// plugin over its finished repetitions: passed, crossed, or not evaluated
// (no value, or too few repetitions for the interval it asks for). A crossed
// or unevaluated threshold fails the run (exit code kExitThresholds): stand
// never passes an objective it could not check.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stand::detect {

struct RepValue {
    std::int64_t rep = 0;
    double value = 0;
};

struct ThresholdOutcome {
    std::string name, metric, plugin, bound, on;  // bound: "below" or "above"; on: "median", "every_rep", "ci"
    double limit = 0;
    std::string status;            // "passed", "crossed" or "not evaluated"
    std::optional<double> value;   // what was compared: the median, the worst repetition or the interval's far end
    std::size_t n = 0;             // finished repetitions with the metric
    std::vector<std::int64_t> crossed_reps;  // "every_rep": the repetitions whose value crossed
    std::string message;           // one sentence with the numbers

    boost::json::object to_json() const;
    static ThresholdOutcome from_json(const boost::json::object& o);  // results.json's form; throws on a wrong one
};

// One threshold (run.json's normalized form) for one plugin; `unfinished`
// names its planned repetitions that did not finish ("rep 3 failed").
ThresholdOutcome evaluate_threshold(const boost::json::object& threshold, const std::string& plugin,
                                    const std::vector<RepValue>& values, const std::vector<std::string>& unfinished);

// Every threshold for every plugin of the run (`plugins`, the labels in
// order) it applies to, from the repetitions' documents (reps/<key>.json).
std::vector<ThresholdOutcome> evaluate_thresholds(const boost::json::array& thresholds,
                                                  const std::vector<boost::json::object>& reps,
                                                  const std::vector<std::string>& plugins);

// Whether the values so far already decide that the threshold is crossed,
// whatever the rest of the `planned` repetitions measure: a crossing
// repetition ("every_rep"), more than half of the planned ones crossing
// ("median"). "ci" is decided only at the end.
bool crossed_for_good(const boost::json::object& threshold, const std::vector<RepValue>& values, std::size_t planned);

// "3x-ui: D.sub_p95_ms < 500 (median): crossed, median 612 over 3 repetitions"
std::string threshold_line(const ThresholdOutcome& o);

}  // namespace stand::detect
