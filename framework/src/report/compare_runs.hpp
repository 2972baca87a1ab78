// `stand compare RUN_A RUN_B`: for every (plugin, metric) both runs measured,
// the medians, the ratio of medians B/A with its bootstrap 95 % interval, and
// a two-sided Mann–Whitney U test of A against B. Fewer than 5 repetitions on
// either side is flagged: with 4 against 4 the smallest exact p is 0.029, with
// 3 against 3 it is 0.1, so "not significant" says little there.
#pragma once

#include "report/per_rep.hpp"
#include "stats/bootstrap.hpp"
#include "stats/summary.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <vector>

namespace stand::report {

inline constexpr std::size_t kCompareMinReps = 5;

struct MetricComparison {
    std::string plugin;
    std::string metric;
    stats::Summary a, b;
    std::optional<double> ratio;              // median(b) / median(a); none when median(a) == 0
    std::optional<stats::Interval> ratio_ci;  // none with fewer than 2 values on a side
    double p_value = 1;
    std::string method;                       // "exact" or "asymptotic"
    bool few_reps = false;                    // n < kCompareMinReps on a side
};

struct RunComparison {
    std::vector<MetricComparison> rows;       // sorted by plugin, then metric
    std::vector<std::string> only_in_a;       // "plugin metric" measured by one run only
    std::vector<std::string> only_in_b;
};

RunComparison compare_rows(const std::vector<PerRepRow>& a, const std::vector<PerRepRow>& b);

// Markdown for a terminal or a file; `name_a`/`name_b` head the columns.
std::string comparison_markdown(const RunComparison& c, const std::string& name_a, const std::string& name_b);
boost::json::object comparison_json(const RunComparison& c, const std::string& name_a, const std::string& name_b);

}  // namespace stand::report
