#include "report/table.hpp"

#include "report/report_error.hpp"
#include "stats/descriptive.hpp"
#include "stats/summary.hpp"

#include <algorithm>
#include <map>

namespace stand::report {
namespace {

// The rows grouped by plugin, then rep (both in order of first appearance).
struct Rep {
    std::int64_t id = 0;
    std::map<std::string, double, std::less<>> metrics;
};
struct Plugin {
    std::string name;
    std::vector<Rep> reps;
};

std::vector<Plugin> group(std::span<const PerRepRow> rows) {
    std::vector<Plugin> plugins;
    std::map<std::string, std::size_t, std::less<>> plugin_index;
    std::map<std::pair<std::size_t, std::int64_t>, std::size_t> rep_index;
    for (const auto& r : rows) {
        auto [pit, new_plugin] = plugin_index.emplace(r.plugin, plugins.size());
        if (new_plugin) plugins.push_back({r.plugin, {}});
        auto& plugin = plugins[pit->second];
        auto [rit, new_rep] = rep_index.emplace(std::make_pair(pit->second, r.rep), plugin.reps.size());
        if (new_rep) plugin.reps.push_back({r.rep, {}});
        plugin.reps[rit->second].metrics[r.metric] = r.value;
    }
    return plugins;
}

bool selects(const RepRule& rule, const Rep& rep) {
    switch (rule.kind) {
    case RepRule::Kind::all: return true;
    case RepRule::Kind::with_metric: return rep.metrics.count(rule.metric) != 0;
    case RepRule::Kind::with_nonzero_metric: {
        auto it = rep.metrics.find(rule.metric);
        return it != rep.metrics.end() && it->second != 0.0;
    }
    case RepRule::Kind::any_of:
        return std::any_of(rule.rules.begin(), rule.rules.end(), [&](const RepRule& r) { return selects(r, rep); });
    }
    return false;
}

std::string escape_cell(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '|') out += "\\|";
        else if (c == '\n' || c == '\r') out += ' ';
        else out += c;
    }
    return out;
}

std::string cell_text(const TableSpec& spec, const RowSpec& row, const std::vector<double>& values) {
    if (values.empty()) return spec.missing;
    const bool want_ci = spec.cell.uses("ci_low") || spec.cell.uses("ci_high");
    stats::Summary s;
    if (want_ci) {
        s = stats::summarize(values);
    } else {
        s.n = values.size();
        s.median = stats::median(values);
        s.min = stats::min(values);
        s.max = stats::max(values);
    }
    auto number = [&](const std::optional<double>& v) { return v ? row.format.apply(*v) : spec.missing; };
    return spec.cell.render([&](const std::string& name) -> std::string {
        if (name == "median") return row.format.apply(s.median);
        if (name == "min") return row.format.apply(s.min);
        if (name == "max") return row.format.apply(s.max);
        if (name == "n") return std::to_string(s.n);
        if (name == "ci_low") return number(s.ci_low);
        return number(s.ci_high);  // ci_high: the template admits no other name
    });
}

}  // namespace

Table build_table(std::span<const PerRepRow> rows, const TableSpec& spec, const std::string& rows_source) {
    const auto plugins = group(rows);
    std::vector<const Plugin*> columns;
    switch (spec.column_order) {
    case TableSpec::ColumnOrder::declared:
        for (std::size_t i = 0; i < spec.columns.size(); ++i) {
            auto it = std::find_if(plugins.begin(), plugins.end(),
                                   [&](const Plugin& p) { return p.name == spec.columns[i]; });
            if (it == plugins.end())
                throw ReportError(spec.where("$.columns[" + std::to_string(i) + "]",
                                             "plugin '" + spec.columns[i] + "' has no rows in " + rows_source));
            columns.push_back(&*it);
        }
        break;
    case TableSpec::ColumnOrder::sorted:
    case TableSpec::ColumnOrder::first_seen:
        for (const auto& p : plugins) columns.push_back(&p);
        if (spec.column_order == TableSpec::ColumnOrder::sorted)
            std::stable_sort(columns.begin(), columns.end(),
                             [](const Plugin* a, const Plugin* b) { return a->name < b->name; });
        break;
    }
    if (columns.empty()) throw ReportError(rows_source + ": no rows to tabulate");

    Table table;
    std::vector<std::vector<const Rep*>> counted(columns.size());  // reps whose values enter the cells
    for (std::size_t c = 0; c < columns.size(); ++c) {
        TableColumn col;
        col.plugin = columns[c]->name;
        for (const auto& rep : columns[c]->reps) {
            if (selects(spec.values_from, rep)) counted[c].push_back(&rep);
            if (selects(spec.n_counts, rep)) ++col.n;
        }
        col.header = spec.column_header.render(
            [&](const std::string& name) { return name == "plugin" ? col.plugin : std::to_string(col.n); });
        table.columns.push_back(std::move(col));
    }

    for (const auto& row_spec : spec.rows) {
        TableRow row;
        row.label = row_spec.label;
        bool any_value = false;
        for (std::size_t c = 0; c < columns.size(); ++c) {
            TableCell cell;
            for (const Rep* rep : counted[c]) {
                auto it = rep->metrics.find(row_spec.metric);
                if (it != rep->metrics.end()) cell.values.push_back(it->second);
                else if (row_spec.missing_as) cell.values.push_back(*row_spec.missing_as);
            }
            any_value = any_value || !cell.values.empty();
            cell.text = cell_text(spec, row_spec, cell.values);
            if (!row_spec.ratio_of.empty() && !cell.values.empty()) {
                std::vector<double> other;
                for (const Rep* rep : counted[c])
                    if (auto it = rep->metrics.find(row_spec.ratio_of); it != rep->metrics.end())
                        other.push_back(it->second);
                const double here = stats::median(cell.values);
                if (!other.empty() && here > 0)
                    cell.text += " (" + text::PrintfFormat("%.1fx").apply(stats::median(other) / here) + ")";
            }
            row.cells.push_back(std::move(cell));
        }
        if (!any_value && !row_spec.optional)
            throw ReportError(spec.where(row_spec.path + ".metric",
                                         "metric '" + row_spec.metric + "' has no values in " + rows_source +
                                             " (set \"optional\": true to print " + spec.missing + ")"));
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::vector<std::string> table_flags(const Table& table) {
    std::vector<std::string> flags;
    for (const auto& r : table.rows)
        for (const auto& c : r.cells)
            for (const auto& f : c.flags)
                if (std::find(flags.begin(), flags.end(), f) == flags.end()) flags.push_back(f);
    return flags;
}

std::string flag_marks(const TableCell& cell, const std::vector<std::string>& flags) {
    std::string marks;
    for (const auto& f : cell.flags) {
        const auto at = std::find(flags.begin(), flags.end(), f);
        marks += (marks.empty() ? " \u26a0" : ",") + std::to_string(at - flags.begin() + 1);
    }
    return marks;
}

std::string render_markdown(const Table& table, const TableSpec& spec) {
    const auto flags = table_flags(table);
    std::string out = spec.text_before;
    out += "| " + escape_cell(spec.metric_header) + " |";
    for (const auto& c : table.columns) out += " " + escape_cell(c.header) + " |";
    out += "\n|---|";
    for (std::size_t i = 0; i < table.columns.size(); ++i) out += "---|";
    out += "\n";
    for (const auto& r : table.rows) {
        out += "| " + escape_cell(r.label) + " |";
        for (const auto& c : r.cells) out += " " + escape_cell(c.text + flag_marks(c, flags)) + " |";
        out += "\n";
    }
    if (!flags.empty()) out += "\n";
    for (std::size_t i = 0; i < flags.size(); ++i)
        out += "\u26a0" + std::to_string(i + 1) + " " + escape_cell(flags[i]) + (i + 1 < flags.size() ? "  \n" : "\n");
    out += spec.text_after;
    return out;
}

std::string render_markdown(std::span<const PerRepRow> rows, const TableSpec& spec, const std::string& rows_source) {
    return render_markdown(build_table(rows, spec, rows_source), spec);
}

}  // namespace stand::report
