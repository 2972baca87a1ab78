// Per-rep rows + table spec -> table -> Markdown, the seed harness's format:
//
//   | Metric | 3xui (n=3) | mistgate (n=3) |
//   |---|---|---|
//   | Idle 0 users: memory.current (MiB) | 186 (185-186) | 27 (17-29) |
//
// A cell is the row's printf format applied to the median, min and max of the
// values of the reps selected by the spec's "values_from" (median: Python's
// statistics.median rule), or the spec's "missing" text when there are none.
// This is the whole pipeline after the input is read: whatever produces
// PerRepRow (a per_rep.csv, a results.json) renders through render_markdown().
#pragma once

#include "report/per_rep.hpp"
#include "report/table_spec.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace stand::report {

struct TableColumn {
    std::string plugin;
    std::size_t n = 0;           // the n= of the header (spec "n_counts")
    std::string header;          // the rendered header cell
};

struct TableCell {
    std::vector<double> values;  // empty: the spec's "missing" text
    std::string text;            // unescaped
};

struct TableRow {
    std::string label;
    std::vector<TableCell> cells;  // one per column
};

struct Table {
    std::vector<TableColumn> columns;
    std::vector<TableRow> rows;
};

// Throws ReportError: a declared column with no rows, or a non-optional row
// whose metric has no values (naming the spec file, the row's JSON path and
// `rows_source`, e.g. the CSV file).
Table build_table(std::span<const PerRepRow> rows, const TableSpec& spec, const std::string& rows_source);

// The Markdown text: text_before, the table (one line per row, each ending
// in '\n'), text_after.
std::string render_markdown(const Table& table, const TableSpec& spec);
std::string render_markdown(std::span<const PerRepRow> rows, const TableSpec& spec, const std::string& rows_source);

}  // namespace stand::report
