// Summary sections beyond the metric tables: seed 004's wide tables (a line
// per plugin, a column per metric), the pitfall checks and the anomalies they
// found, the probes' notes, and the machine and tool facts a run recorded.
#pragma once

#include "detect/result_checks.hpp"
#include "report/per_rep.hpp"
#include "rundir/run_tables.hpp"

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace stand::report {

detect::RunValues values_by_plugin(const std::vector<PerRepRow>& rows);

// Of `plugins` (in that order), those with a value for any metric of the
// table's rows: a battery's disk table has no CPU probe column.
std::vector<std::string> plugins_with_values(const rundir::RunTable& table, const std::vector<PerRepRow>& rows,
                                             const std::vector<std::string>& plugins);

// One "wide" table: | Plugin | <row labels> |, cells the median in the
// row's format, plus " (2.1x)" = ratio_of / value when the row names one.
std::string wide_table_markdown(const rundir::RunTable& table, const detect::RunValues& values);

std::string checks_markdown(const std::vector<detect::CheckOutcome>& outcomes);
std::string notes_markdown(const std::vector<boost::json::object>& reps);
std::string machine_markdown(const boost::json::object& run, const std::vector<boost::json::object>& reps);

}  // namespace stand::report
