// The "Adaptive repetitions" section of summary.md and report.html, from
// run.json's "adaptive_repetitions" (scenario/adaptive_reps.hpp): per plugin
// how many repetitions ran and why it stopped. Empty for a fixed count.
#pragma once

#include <boost/json.hpp>

#include <string>

namespace stand::report {

std::string adaptive_markdown(const boost::json::object& run);
std::string adaptive_html(const boost::json::object& run);

}  // namespace stand::report
