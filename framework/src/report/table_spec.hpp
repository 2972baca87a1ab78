// Table spec: which per-rep metrics become which rows of a Markdown table.
//
// A JSON object; every key is optional except "rows", and unknown keys are
// errors ("FILE: $.rows[3]: unknown key 'fromat'"):
//
//   {
//     "description": "free text, ignored",
//     "columns": "first_seen" | "sorted" | ["3xui", "mistgate", ...],
//         // the plugins, left to right: in order of first appearance in the
//         // rows (default), sorted by name, or exactly this list (each must
//         // have rows; plugins not listed are left out)
//     "values_from": REPS,   // reps whose values enter the cells (default "all")
//     "n_counts": REPS,      // reps counted in a column's n= (default "all")
//     "metric_header": "Metric",               // top-left cell
//     "column_header": "{plugin} (n={n})",     // {plugin}, {n}
//     "cell": "{median} ({min}-{max})",        // {median} {min} {max} {n} {ci_low} {ci_high}
//     "missing": "n/a",      // a cell with no values; also an absent CI bound
//     "text_before": "",     // verbatim before the table
//     "text_after": "",      // verbatim after it (e.g. a "Failed runs:" list)
//     "rows": [
//       {"label": "Idle 0 users: anon (MiB)",  // first column
//        "metric": "idle0_anon",                // the per-rep metric
//        "format": "%.0f",                      // printf for each number of the cell
//        "optional": false,   // true: the metric may be absent everywhere (all cells "n/a");
//                             // false: that is an error naming the row
//        "missing_as": 0,     // a counted rep without the metric contributes this value
//                             // (the seed harness's "(None or 0)" quirk); default: nothing
//        "ratio_of": "m2"}    // the cell also shows median(m2) / median(metric): "30.3 (2.0x)"
//     ]
//   }
//
// REPS selects, per plugin, among the reps that have any row:
//   "all"                                   every rep
//   {"with_metric": "M"}                    reps with a row for metric M
//   {"with_nonzero_metric": "M"}            reps whose M is present and not 0 (an ok flag)
//   {"any_of": [REPS, ...]}                 reps any of the rules selects
//
// {n} in "cell" is the number of values in the cell; {median}, {min}, {max},
// {ci_low}, {ci_high} are formatted with the row's "format"; the CI is the
// bootstrap 95 % interval of the median (stats/summary.hpp), absent for n < 2.
// Labels, plugin names and cells have '|' escaped as '\|' in the Markdown.
// scenarios/README.md ("Table specs") documents the same for users.
#pragma once

#include "text/number_format.hpp"
#include "report/text_template.hpp"
#include "rundir/run_tables.hpp"

#include <boost/json/value.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stand::report {

struct RepRule {
    enum class Kind { all, with_metric, with_nonzero_metric, any_of };
    Kind kind = Kind::all;
    std::string metric;          // with_metric, with_nonzero_metric
    std::vector<RepRule> rules;  // any_of
};

struct RowSpec {
    std::string label;
    std::string metric;
    text::PrintfFormat format;
    bool optional = false;
    std::optional<double> missing_as;
    std::string ratio_of;  // another metric: the cell adds " (<its median / this median>x)"
    std::string path;  // "$.rows[3]", for errors
};

struct TableSpec {
    enum class ColumnOrder { first_seen, sorted, declared };

    std::string source = "table spec";  // the file, for errors
    ColumnOrder column_order = ColumnOrder::first_seen;
    std::vector<std::string> columns;  // declared
    RepRule values_from;
    RepRule n_counts;
    std::string metric_header = "Metric";
    TextTemplate column_header;
    TextTemplate cell;
    std::string missing = "n/a";
    std::string text_before;
    std::string text_after;
    std::vector<RowSpec> rows;

    // "SOURCE: PATH: what", the form of every spec error.
    std::string where(const std::string& path, const std::string& what) const;
};

// Throws ReportError naming `source` and the JSON path.
TableSpec parse_table_spec(const boost::json::value& doc, const std::string& source);
// The spec of one of a scenario's tables (run.json): its rows optional (a
// metric no plugin produced shows n/a), cells "{median} ({min}-{max})",
// columns `columns` in that order (empty: in order of first appearance).
TableSpec run_table_spec(const rundir::RunTable& table, const std::vector<std::string>& columns,
                         const std::string& source);
TableSpec parse_table_spec_text(std::string_view json, const std::string& source);
TableSpec load_table_spec(const std::filesystem::path& file);

}  // namespace stand::report
