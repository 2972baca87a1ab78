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
    // What disturbed the repetitions behind the cell, one per finding
    // ("machine-busy in nginx reps 1, 3"; report/cell_verdicts.hpp): shown as
    // a numbered mark with a footnote (Markdown) or on hover (HTML).
    std::vector<std::string> flags;
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

// Every distinct flag of the table's cells, in the order they first appear
// (row by row): flag i is footnote i + 1.
std::vector<std::string> table_flags(const Table& table);
// " ⚠1,2": the marks of a cell's flags, numbered as table_flags does; "" for none.
std::string flag_marks(const TableCell& cell, const std::vector<std::string>& flags);

// The Markdown text: text_before, the table (one line per row, each ending
// in '\n'), the flags' footnotes ("⚠1 machine-busy in nginx rep 1"),
// text_after.
std::string render_markdown(const Table& table, const TableSpec& spec);
std::string render_markdown(std::span<const PerRepRow> rows, const TableSpec& spec, const std::string& rows_source);

}  // namespace stand::report
