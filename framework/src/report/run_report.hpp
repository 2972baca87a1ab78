// The report files of a run directory, derived from its raw files (run.json,
// reps/*.json) alone, so `stand report RUN_DIR` regenerates them any time:
//   results.json  the canonical result: every repetition plus summaries
//   per_rep.csv   plugin,rep,metric,value (the seed harness schema)
//   summary.md    the verdict (can the numbers be quoted), the thresholds,
//                 the scenario's tables, failed repetitions, effective boxes,
//                 and "What these numbers do not tell you" from the detectors
//   report.html   the same, with charts
#pragma once

#include "detect/thresholds.hpp"
#include "report/per_rep.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <vector>

namespace stand::report {

struct RunReportFiles {
    std::filesystem::path results_json, per_rep_csv, summary_md, report_html;
    std::vector<detect::ThresholdOutcome> thresholds;  // as written to results.json
};

// The run's plugin labels: run.json's "plugins" in order, then any other a
// repetition names.
std::vector<std::string> plugin_labels(const boost::json::object& run, const std::vector<boost::json::object>& reps);

// Metrics of the repetitions with status "ok", one row per value.
std::vector<PerRepRow> rows_of_reps(const std::vector<boost::json::object>& reps);

// Throws std::runtime_error naming the file when run.json or a rep is unreadable.
RunReportFiles write_run_report(const std::filesystem::path& run_dir);

}  // namespace stand::report
