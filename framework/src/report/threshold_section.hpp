// The scenario's thresholds in the report: a section at the top of
// summary.md and report.html (every threshold per plugin: passed, crossed or
// not evaluated, with the figure compared), and as JUnit XML, one test case
// per threshold and plugin, for `stand run --junit` / `stand report --junit`.
#pragma once

#include "detect/thresholds.hpp"

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace stand::report {

struct ThresholdTally {
    std::size_t passed = 0, crossed = 0, not_evaluated = 0;
    std::size_t failing() const noexcept { return crossed + not_evaluated; }
};

ThresholdTally tally(const std::vector<detect::ThresholdOutcome>& outcomes);

// results.json's "thresholds" back as outcomes (empty when it has none).
std::vector<detect::ThresholdOutcome> threshold_outcomes(const boost::json::object& results);

// "" when the scenario has no thresholds.
std::string thresholds_markdown(const std::vector<detect::ThresholdOutcome>& outcomes);
std::string thresholds_html(const std::vector<detect::ThresholdOutcome>& outcomes);

// The one-line tally: "Thresholds: 3 passed, 1 crossed (nginx: ...)".
std::string thresholds_line(const std::vector<detect::ThresholdOutcome>& outcomes);

// `suite` names the test suite ("stand run <scenario>").
std::string thresholds_junit(const std::vector<detect::ThresholdOutcome>& outcomes, const std::string& suite);

}  // namespace stand::report
