// The detectors' verdict next to each number: a table cell whose plugin's
// repetitions had a finding scoped to the row's step (the metric's part
// before its first '.', "B64" of "B64.gbit_s") ends in " ⚠ <id>, <id>";
// findings of whole repetitions (no step: a busy machine before it began)
// are named once under the table, per plugin. The findings themselves are
// listed in full under "What these numbers do not tell you".
#pragma once

#include "report/table.hpp"
#include "report/table_spec.hpp"

#include <boost/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace stand::report {

struct RepFindings {
    std::map<std::string, std::map<std::string, std::set<std::string>>> by_step;  // plugin -> step -> ids
    std::map<std::string, std::set<std::string>> whole_rep;                       // plugin -> ids
};

// From reps/<key>.json documents (their "plugin" and "findings"; a finding's
// scope is "<plugin> rep <n>[, step <name>]").
RepFindings rep_findings(const std::vector<boost::json::object>& reps);

// Appends the markers to the cells of `table` (built from `spec`).
void mark_cells(Table& table, const TableSpec& spec, const RepFindings& findings);

// "Detectors on whole repetitions: 3x-ui: machine-busy; ..." for the
// table's columns, "" when none fired.
std::string whole_rep_line(const Table& table, const RepFindings& findings);

}  // namespace stand::report
