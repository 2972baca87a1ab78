// The detectors' verdict next to each number: a table cell fed by a
// repetition with a finding is flagged with it. A finding scoped to a step
// ("<plugin> rep <n>, step <name>") flags the cells of that plugin's rows
// whose metric belongs to the step (the part before its first '.', "B64" of
// "B64.gbit_s"); one of a whole repetition ("<plugin> rep <n>": a busy
// machine before it began) flags every cell of that plugin. The flag names
// the finding, the plugin and the repetitions ("machine-busy in nginx reps
// 1, 3"); the findings themselves are listed in full under "What these
// numbers do not tell you".
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
    // plugin -> step ("" for the whole repetition) -> finding id -> repetitions
    std::map<std::string, std::map<std::string, std::map<std::string, std::set<long long>>>> by_plugin;
};

// From reps/<key>.json documents (their "plugin", "rep" and "findings").
RepFindings rep_findings(const std::vector<boost::json::object>& reps);

// Sets the flags of the cells of `table` (built from `spec`).
void mark_cells(Table& table, const TableSpec& spec, const RepFindings& findings);

}  // namespace stand::report
