// Per-repetition CSV, the seed harness's per_rep.csv schema:
//
//   plugin,rep,metric,value
//   3xui,1,"A: private memory, anon+kernel (MiB)",79.035546875
//
// The header must be exactly plugin,rep,metric,value; the seed harness's
// panel,rep,metric,value is accepted too. rep is an integer >= 0, value a
// finite decimal number; plugin and metric are non-empty. Fields follow
// RFC 4180 (report/csv.hpp), since metric labels hold commas. A repeated
// (plugin, rep, metric) is an error. Every error names FILE:LINE.
#pragma once

#include "report/per_rep.hpp"

#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stand::report {

// `source` names the text in errors (a file name).
std::vector<PerRepRow> parse_per_rep_csv(std::string_view text, const std::string& source);
std::vector<PerRepRow> read_per_rep_csv(const std::filesystem::path& file);

// Writes the header plugin,rep,metric,value and one line per row (LF line
// ends, fields quoted only when needed, values in their shortest round-trip
// form, so reading the output back gives the same rows).
void write_per_rep_csv(std::ostream& out, std::span<const PerRepRow> rows);

}  // namespace stand::report
