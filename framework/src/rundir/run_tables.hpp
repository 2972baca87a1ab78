// A scenario's report tables as run.json holds them: one model, written by
// the run (from the scenario's validated "tables") and read back by the
// report, so a table is parsed by the scenario parser once and never again
// under another schema.
#pragma once

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace stand::rundir {

// A row of a report table: label, metric key, printf format.
struct TableRow {
    std::string label;
    std::string metric;
    std::string format = "%.2f";
    std::string ratio_of;  // "a.x": the cell also shows a.x / this value, "(29.9x)"
    // For `stand report --bench-json`: which way the metric is better
    // ("lower" or "higher"; "" not declared) and its unit ("ms"; "" none).
    std::string better;
    std::string unit;
};

struct RunTable {
    std::string title;
    // "rows": a row per metric, a column per plugin; "wide" (seed 004's
    // shape): a line per plugin with values, a column per metric.
    std::string layout = "rows";
    std::vector<TableRow> rows;
};

boost::json::array tables_to_json(const std::vector<RunTable>& tables);
// run.json's "tables" (none: empty). Throws std::runtime_error naming the
// table and key when the file was not written by tables_to_json.
std::vector<RunTable> tables_of_run(const boost::json::object& run);

}  // namespace stand::rundir
