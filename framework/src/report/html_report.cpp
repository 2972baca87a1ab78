#include "report/html_report.hpp"

#include "report/cell_verdicts.hpp"
#include "report/standing_caveat.hpp"
#include "rundir/run_files.hpp"

#include "report/adaptive_section.hpp"
#include "report/battery_sections.hpp"
#include "report/capacity_section.hpp"
#include "report/html_charts.hpp"
#include "report/html_text.hpp"
#include "report/json_get.hpp"
#include "report/machine_facts.hpp"
#include "report/report_error.hpp"
#include "report/run_report.hpp"
#include "report/table.hpp"
#include "report/table_spec.hpp"
#include "report/threshold_section.hpp"
#include "report/verdict.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <map>
#include <set>

namespace stand::report {
namespace {

namespace json = boost::json;
using json_get::array_at;
using json_get::number_at;
using json_get::object_at;
using json_get::string_at;

// Okabe-Ito colours (distinguishable with the common colour blindnesses), then two more.
constexpr std::array<const char*, 8> kColors{"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                             "#e69f00", "#56b4e9", "#8c564b", "#555555"};
constexpr std::array<const char*, 4> kDashes{"", "7 4", "2 3", "10 3 2 3"};

std::string stylesheet() {
    return std::string(
               ":root{color-scheme:light}"
               "body{margin:0;background:#fff;color:#222;font:14px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,"
               "\"Helvetica Neue\",Arial,sans-serif}"
               // Tables may use a 1400-pixel window's width; prose and charts keep a readable measure.
               "main{max-width:1360px;margin:0 auto;padding:12px 20px 40px}"
               "p,nav,figure,ul.findings{max-width:920px}"
               "h1{font-size:24px;margin:8px 0 4px}"
               "h2{font-size:19px;margin:36px 0 8px;padding-bottom:4px;border-bottom:1px solid #dde1e6}"
               "h3{font-size:16px;margin:24px 0 6px}"
               "p{margin:6px 0}.note{color:#555}"
               "table{border-collapse:collapse;margin:8px 0 12px;font-variant-numeric:tabular-nums}"
               "th,td{border:1px solid #dde1e6;padding:4px 8px;text-align:left;vertical-align:top}"
               "th{background:#f4f6f8;font-weight:600}td.num{text-align:right}td.num span{white-space:nowrap}"
               "table.summary td:first-child{min-width:8em}td.num span.range{white-space:normal}.range{color:#555}.flag{color:#a04000;cursor:help}td.flagged{background:#fff6e8}"
               ".verdict{padding:6px 10px;border-left:4px solid}.verdict.clean{border-color:#009e73;background:#eef8f3}"
               ".verdict.unclean{border-color:#d55e00;background:#fff6e8}"
               "table.thresholds tr.fail td{background:#fdecea}"
               "table.facts th{white-space:nowrap}"
               ".swatch{display:inline-block;width:10px;height:10px;margin-right:6px;border-radius:2px}"
               "code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,\"Liberation Mono\",monospace;"
               "background:#f4f6f8;padding:1px 3px;border-radius:3px;overflow-wrap:anywhere}"
               "nav ul{margin:6px 0;padding-left:20px}.scroll{overflow-x:auto}"
               "figure{margin:10px 0 22px}figcaption{font-size:13px;color:#333;margin-bottom:4px}"
               "figure.bars{margin:4px 0 10px}"
               "ul.findings li{margin:2px 0}"
               "svg{display:block;max-width:100%;height:auto}"
               "svg text{font-size:12px;fill:#333}"
               "svg .axis{stroke:#777;stroke-width:1}"
               "svg .grid{stroke:#e2e5e9;stroke-width:1}"
               "svg .grid-minor{stroke:#f1f2f4;stroke-width:1}"
               "svg .band{fill:") +
           kBandFill +
           "}"
           "svg .band-label{font-size:11px;fill:#4a5566}"
           "svg .axis-title{font-size:12px;fill:#444}"
           "svg .ref{stroke:#9aa0a6;stroke-width:1;stroke-dasharray:3 3}"
           "svg .ref-label{font-size:11px;fill:#666}"
           "svg .series{fill:none;stroke-width:1.8;stroke-linejoin:round;stroke-linecap:round}"
           "svg .bar{fill-opacity:.35;stroke-width:1}"
           "svg .whisker{stroke:#222;stroke-width:1.4}";
}

struct Run {
    const json::object& results;
    json::object run;
    std::vector<json::object> reps;  // as in results.json: sorted by key
    std::vector<std::string> plugins;  // scenario order, then any others as first seen
    std::vector<RepView> views;        // by plugin, then repetition

    std::size_t plugin_index(const std::string& p) const {
        return static_cast<std::size_t>(std::find(plugins.begin(), plugins.end(), p) - plugins.begin());
    }
    std::string color(const std::string& p) const { return kColors[plugin_index(p) % kColors.size()]; }
};

Run load(const json::object& results) {
    Run r{results, {}, {}, {}, {}};
    if (const json::object* run = object_at(results, rundir::results_key::kRun)) r.run = *run;
    if (const json::array* reps = array_at(results, rundir::results_key::kReps))
        for (const auto& v : *reps)
            if (v.is_object()) r.reps.push_back(v.get_object());
    if (const json::array* plugins = array_at(r.run, "plugins"))
        for (const auto& p : *plugins)
            if (p.is_object()) r.plugins.push_back(string_at(p.get_object(), "label"));
    for (const auto& rep : r.reps)
        if (auto p = string_at(rep, rundir::rep_key::kPlugin); std::find(r.plugins.begin(), r.plugins.end(), p) == r.plugins.end())
            r.plugins.push_back(p);
    for (const auto& rep : r.reps) {
        const std::string plugin = string_at(rep, rundir::rep_key::kPlugin);
        const auto n = static_cast<long long>(number_at(rep, rundir::rep_key::kRep).value_or(0));
        RepView v;
        v.rep = &rep;
        v.key = string_at(rep, rundir::rep_key::kKey);
        v.label = plugin + " rep " + std::to_string(n);
        v.style = {r.color(plugin), kDashes[static_cast<std::size_t>(std::max(n - 1, 0LL)) % kDashes.size()]};
        v.ok = string_at(rep, rundir::rep_key::kStatus) == "ok";
        r.views.push_back(std::move(v));
    }
    std::stable_sort(r.views.begin(), r.views.end(), [&](const RepView& a, const RepView& b) {
        auto ka = std::make_pair(r.plugin_index(string_at(*a.rep, "plugin")), number_at(*a.rep, "rep").value_or(0));
        auto kb = std::make_pair(r.plugin_index(string_at(*b.rep, "plugin")), number_at(*b.rep, "rep").value_or(0));
        return ka < kb;
    });
    return r;
}

std::string swatch(const std::string& color) {
    return "<span class=\"swatch\" style=\"background:" + html_escape(color) + "\"></span>";
}

std::string utc_time(double unix_s) {
    const auto t = static_cast<std::time_t>(unix_s);
    std::tm tm{};
    if (::gmtime_r(&t, &tm) == nullptr) return fixed(unix_s, 0);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

std::string fact(const std::string& name, const std::string& html) {
    return "<tr><th>" + html_escape(name) + "</th><td>" + html + "</td></tr>";
}

std::string info_section(const Run& r, const std::filesystem::path& run_dir) {
    std::map<std::string, std::size_t> by_status;
    for (const auto& rep : r.reps) ++by_status[string_at(rep, rundir::rep_key::kStatus)];
    std::string counts = by_status.count("ok") ? std::to_string(by_status["ok"]) + " ok" : std::string();
    for (const auto& [status, n] : by_status)
        if (status != "ok") counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + status;
    const json::array* plan = array_at(r.run, "plan");
    std::string reps_text = plan ? std::to_string(plan->size()) + " planned" : std::string();
    if (!counts.empty()) reps_text += (reps_text.empty() ? "" : "; ") + counts;

    std::string out = "<table class=\"facts\">";
    out += fact("Run directory", "<code>" + html_escape(run_dir.string()) + "</code>");
    if (auto f = string_at(r.run, "scenario_file"); !f.empty())
        out += fact("Scenario file", "<code>" + html_escape(f) + "</code>");
    if (auto t = number_at(r.run, "started_unix")) out += fact("Started", html_escape(utc_time(*t)));
    if (auto v = string_at(r.run, "host_version"); !v.empty()) out += fact("stand version", html_escape(v));
    out += fact("Repetitions", html_escape(reps_text.empty() ? "none" : reps_text));
    if (!r.reps.empty())
        if (const json::object* box = object_at(r.reps.front(), rundir::rep_key::kBoxPlan)) {
            std::string text;
            if (auto v = number_at(*box, "vcpu")) text += fixed(*v, *v == std::floor(*v) ? 0 : 2) + " vCPU";
            if (auto m = number_at(*box, "memory_max"))
                text += (text.empty() ? "" : ", ") + fixed(*m / (1024.0 * 1024.0), 0) + " MiB memory";
            if (!text.empty()) out += fact("Box (first repetition)", html_escape(text));
        }
    out += "</table>";

    out += "<table><thead><tr><th>Plugin</th><th>Adapter</th><th>Config</th><th>Finished</th></tr></thead><tbody>";
    std::map<std::string, json::object> config;
    std::map<std::string, std::string> adapter;
    if (const json::array* plugins = array_at(r.run, "plugins"))
        for (const auto& p : *plugins)
            if (p.is_object()) {
                const auto label = string_at(p.get_object(), "label");
                adapter[label] = string_at(p.get_object(), "id");
                if (const json::object* c = object_at(p.get_object(), "config")) config[label] = *c;
            }
    for (const auto& p : r.plugins) {
        std::size_t ok = 0;
        std::size_t total = 0;
        for (const auto& v : r.views)
            if (string_at(*v.rep, rundir::rep_key::kPlugin) == p) {
                ++total;
                ok += v.ok ? 1 : 0;
            }
        out += "<tr><td>" + swatch(r.color(p)) + html_escape(p) + "</td><td>" + html_escape(adapter[p]) +
               "</td><td><code>" + html_escape(json::serialize(config[p])) + "</code></td><td class=\"num\">" +
               std::to_string(ok) + " of " + std::to_string(total) + "</td></tr>";
    }
    return out + "</tbody></table>";
}

// ---- tables and bars --------------------------------------------------------

struct Stats {
    double median = 0, min = 0, max = 0;
};

Stats stats_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return {n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v.front(), v.back()};
}

std::string bars_figure(const Run& r, const Table& t, std::size_t row, const RowSpec& spec) {
    std::vector<WhiskerBar> bars;
    bool any = false;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        const auto& cell = t.rows[row].cells[c];
        WhiskerBar b;
        b.label = t.columns[c].plugin;
        b.color = r.color(b.label);
        if (cell.values.empty()) b.text = "n/a";
        else {
            auto s = stats_of(cell.values);
            b.has_values = any = true;
            b.median = s.median;
            b.min = s.min;
            b.max = s.max;
            b.text = spec.format.apply(s.median) + " (" + spec.format.apply(s.min) + "\u2013" +
                     spec.format.apply(s.max) + "), n=" + std::to_string(cell.values.size());
        }
        bars.push_back(std::move(b));
    }
    if (!any) return "";
    return "<figure class=\"bars\"><figcaption>" + html_escape(t.rows[row].label) + "</figcaption>" +
           whisker_bars_svg(bars, t.rows[row].label + ": median per plugin, whiskers min to max", kChartWidth) +
           "</figure>";
}

// A cell "612 (580-650)" breaks before its range when the column is narrow;
// a flag is a mark whose title names the finding (hover), numbered as the
// notes under the table.
std::string cell_html(const TableCell& cell, const std::vector<std::string>& flags) {
    const auto open = cell.text.find(" (");
    std::string out = open == std::string::npos
                          ? "<span>" + html_escape(cell.text) + "</span>"
                          : "<span>" + html_escape(cell.text.substr(0, open)) + "</span> <span class=\"range\">" +
                                html_escape(cell.text.substr(open + 1)) + "</span>";
    for (const auto& f : cell.flags) {
        const auto n = std::find(flags.begin(), flags.end(), f) - flags.begin() + 1;
        out += " <span class=\"flag\" title=\"" + html_escape(f) + "\">\u26a0" + std::to_string(n) + "</span>";
    }
    return out;
}

std::string table_html(const Run& r, const Table& t) {
    const auto flags = table_flags(t);
    std::string out = "<div class=\"scroll\"><table class=\"summary\"><thead><tr><th>Metric</th>";
    for (const auto& c : t.columns) out += "<th>" + swatch(r.color(c.plugin)) + html_escape(c.header) + "</th>";
    out += "</tr></thead><tbody>";
    for (const auto& row : t.rows) {
        out += "<tr><td>" + html_escape(row.label) + "</td>";
        for (const auto& cell : row.cells)
            out += std::string("<td class=\"num") + (cell.flags.empty() ? "" : " flagged") + "\">" + cell_html(cell, flags) +
                   "</td>";
        out += "</tr>";
    }
    out += "</tbody></table></div>";
    if (flags.empty()) return out;
    out += "<p class=\"note flags\">";
    for (std::size_t i = 0; i < flags.size(); ++i)
        out += (i ? "<br>" : "") + std::string("\u26a0") + std::to_string(i + 1) + " " + html_escape(flags[i]);
    return out + "</p>";
}

std::string tables_section(const Run& r) {
    std::string out = "<section id=\"tables\"><h2>Results</h2><p class=\"note\">Cells: median (min-max) over the "
                      "repetitions that finished; n is their count. Under each table, one chart per row: the bar is "
                      "the median, the whisker spans min to max.</p>";
    const auto tables = rundir::tables_of_run(r.run);
    if (tables.empty())
        return out + "<p class=\"note\">The scenario declares no tables.</p>" + adaptive_html(r.run) + "</section>";
    const auto rows = rows_of_reps(r.reps);
    const auto findings = rep_findings(r.reps);
    std::vector<std::string> columns;
    for (const auto& p : r.plugins)
        if (std::any_of(rows.begin(), rows.end(), [&](const PerRepRow& row) { return row.plugin == p; }))
            columns.push_back(p);
    for (const auto& table : tables) {
        out += "<h3>" + html_escape(table.title) + "</h3>";
        if (rows.empty()) {
            out += "<p class=\"note\">No repetition finished, so there is nothing to tabulate.</p>";
            continue;
        }
        auto table_columns = plugins_with_values(table, rows, columns);
        if (table_columns.empty()) table_columns = columns;
        try {
            const TableSpec spec = run_table_spec(table, table_columns, "run.json tables");
            Table t = build_table(rows, spec, "results.json");
            mark_cells(t, spec, findings);
            out += table_html(r, t);
            for (std::size_t i = 0; i < t.rows.size(); ++i) out += bars_figure(r, t, i, spec.rows[i]);
        } catch (const std::exception& e) {
            out += "<p class=\"note\">This table cannot be drawn: " + html_escape(e.what()) + "</p>";
        }
    }
    return out + adaptive_html(r.run) + "</section>";
}

// ---- repetitions and findings -------------------------------------------------

std::string failed_section(const Run& r) {
    std::string out = "<section id=\"failed\"><h2>Repetitions that did not finish</h2>";
    std::string rows;
    for (const auto& v : r.views) {
        if (v.ok) continue;
        std::string reason = string_at(*v.rep, rundir::rep_key::kReason);
        if (reason.empty() && string_at(*v.rep, rundir::rep_key::kStatus) == "running")
            reason = "the run stopped during this repetition";
        rows += "<tr><td>" + swatch(v.style.color) + html_escape(v.label) + " (" + html_escape(v.key) + ")</td><td>" +
                html_escape(string_at(*v.rep, rundir::rep_key::kStatus)) + "</td><td>" + html_escape(string_at(*v.rep, rundir::rep_key::kFailedStep)) +
                "</td><td>" + html_escape(reason) + "</td></tr>";
    }
    if (rows.empty())
        return out + "<p>All " + std::to_string(r.views.size()) + " repetitions finished.</p></section>";
    return out + "<table><thead><tr><th>Repetition</th><th>Status</th><th>Failed step</th><th>Reason</th></tr></thead>"
                 "<tbody>" + rows + "</tbody></table></section>";
}

// run.json's machine facts (a column per host for a run on hosts), as summary.md's "Machine".
std::string machine_section(const Run& r) {
    const MachineFacts machine = machine_facts(r.run);
    std::string out = "<section id=\"machine\"><h2>Machine</h2>";
    if (machine.rows.empty()) return out + "<p class=\"note\">run.json records no machine facts.</p></section>";
    out += "<table><thead><tr><th>Fact</th>";
    for (const auto& c : machine.columns) out += "<th>" + html_escape(c) + "</th>";
    out += "</tr></thead><tbody>";
    for (const auto& [fact, values] : machine.rows) {
        out += "<tr><th>" + html_escape(fact) + "</th>";
        for (const auto& v : values) out += "<td>" + html_escape(v) + "</td>";
        out += "</tr>";
    }
    return out + "</tbody></table></section>";
}

std::string findings_section(const Run& r) {
    std::vector<const json::object*> findings;
    auto collect = [&](const json::array& a) {
        for (const auto& f : a)
            if (f.is_object()) findings.push_back(&f.get_object());
    };
    if (const json::array* a = array_at(r.results, rundir::results_key::kFindings)) collect(*a);
    else
        for (const auto& rep : r.reps)
            if (const json::array* rf = array_at(rep, rundir::rep_key::kFindings)) collect(*rf);
    std::map<std::string, std::vector<std::string>> by_id;
    for (const auto* f : findings)
        by_id[string_at(*f, "id")].push_back(string_at(*f, "scope") + ": " + string_at(*f, "message"));

    std::string out = "<section id=\"findings\"><h2>What these numbers do not tell you</h2>";
    if (by_id.empty())
        out += "<p>No detector fired: no saturated generator, busy machine, box drift, rate limit or lagging open "
               "model was seen.</p>";
    else {
        out += "<ul class=\"findings\">";
        for (const auto& [id, lines] : by_id) {
            out += "<li><strong>" + html_escape(id) + "</strong> (" + std::to_string(lines.size()) + "x)<ul>";
            std::set<std::string> seen;
            for (const auto& l : lines)
                if (seen.insert(l).second) out += "<li>" + html_escape(l) + "</li>";
            out += "</ul></li>";
        }
        out += "</ul>";
    }
    return out + "<p>" + html_escape(standing_caveat(r.run)) + "</p></section>";
}

}  // namespace

std::string render_html_report(const json::object& results, const std::filesystem::path& run_dir) {
    const Run r = load(results);
    std::string name = string_at(r.run, "scenario_name");
    if (name.empty()) name = "stand run";
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                      "<title>" + html_escape(name) + ": stand report</title><style>" + stylesheet() +
                      "</style></head>\n<body><main>\n<h1>" + html_escape(name) + "</h1>\n";
    out += verdict_html(run_verdict(results)) + "\n";
    const auto thresholds = threshold_outcomes(results);
    out += thresholds_html(thresholds) + "\n";
    out += info_section(r, run_dir) + "\n";
    const std::string capacity = capacity_section(r.views);
    out += "<nav><strong>Contents</strong><ul><li><a href=\"#tables\">Results</a></li>"
           "<li><a href=\"#latency\">Latency distribution per load step</a></li>" +
           std::string(capacity.empty() ? "" : "<li><a href=\"#capacity\">Capacity searches</a></li>") +
           "<li><a href=\"#timeseries\">Memory and CPU over time</a></li>"
           "<li><a href=\"#failed\">Repetitions that did not finish</a></li>"
           "<li><a href=\"#machine\">Machine</a></li>"
           "<li><a href=\"#findings\">What these numbers do not tell you</a></li></ul></nav>\n";
    out += tables_section(r) + "\n";
    out += latency_section(r.views) + "\n";
    if (!capacity.empty()) out += capacity + "\n";
    out += time_series_section(r.views, run_dir) + "\n";
    out += failed_section(r) + "\n";
    out += machine_section(r) + "\n";
    out += findings_section(r) + "\n";
    return out + "</main></body></html>\n";
}

}  // namespace stand::report
