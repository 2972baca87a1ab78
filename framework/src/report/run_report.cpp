#include "report/run_report.hpp"
#include "report/standing_caveat.hpp"
#include "detect/shared_machine.hpp"
#include "report/cell_verdicts.hpp"
#include "report/markdown_text.hpp"
#include "report/threshold_section.hpp"
#include "report/verdict.hpp"
#include "detect/thresholds.hpp"
#include "rundir/run_files.hpp"

#include "report/adaptive_section.hpp"
#include "report/battery_sections.hpp"
#include "report/proxy_sections.hpp"
#include "report/runtime_sections.hpp"
#include "report/spread_ratio.hpp"
#include "report/html_report.hpp"
#include "report/per_rep_csv.hpp"
#include "report/table.hpp"
#include "report/table_spec.hpp"
#include "detect/defaults_differ.hpp"
#include "detect/finding.hpp"
#include "detect/host_tuning_findings.hpp"
#include "rundir/run_directory.hpp"
#include "stats/summary.hpp"
#include "text/finite_json.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace stand::report {
namespace {

namespace json = boost::json;

json::object summaries(const std::vector<PerRepRow>& rows) {
    std::map<std::string, std::map<std::string, std::vector<double>>> values;
    for (const auto& r : rows) values[r.plugin][r.metric].push_back(r.value);
    json::object out;
    for (auto& [plugin, metrics] : values) {
        json::object m;
        for (auto& [metric, v] : metrics) {
            auto s = stats::summarize(v);
            json::object o{{"n", s.n}, {"median", s.median}, {"min", s.min}, {"max", s.max}};
            o["ci95_low"] = s.ci_low ? json::value(*s.ci_low) : json::value(nullptr);
            o["ci95_high"] = s.ci_high ? json::value(*s.ci_high) : json::value(nullptr);
            m[metric] = std::move(o);
        }
        out[plugin] = std::move(m);
    }
    return out;
}

std::string md_escape(std::string text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

std::string tables_markdown(const json::object& run, const std::vector<PerRepRow>& rows,
                            const std::vector<json::object>& reps, const std::string& source) {
    std::string md;
    const auto values = values_by_plugin(rows);
    const auto findings = rep_findings(reps);
    for (const auto& table : rundir::tables_of_run(run)) {
        md += "## " + table.title + "\n\n";
        if (table.layout == "wide") {
            md += wide_table_markdown(table, values) + "\n";
            continue;
        }
        std::vector<std::string> all;
        for (const auto& [plugin, metrics] : values) all.push_back(plugin);
        auto with_values = plugins_with_values(table, rows, all);
        if (with_values.size() == all.size()) with_values.clear();  // every plugin: in order of appearance
        if (rows.empty()) {
            md += "No repetition finished, so there is nothing to tabulate.\n\n";
            continue;
        }
        const auto spec = run_table_spec(table, with_values, source + " tables");
        auto built = build_table(rows, spec, source);
        mark_cells(built, spec, findings);
        md += render_markdown(built, spec);
        md += "\n";
    }
    return md;
}

// The repetitions' findings and those over the whole run (`run_findings`).
std::string findings_markdown(const json::object& run, const std::vector<json::object>& reps,
                              const std::vector<detect::Finding>& run_findings) {
    std::map<std::string, std::vector<std::string>> by_id;
    for (const auto& rep : reps)
        if (auto* f = rep.if_contains(rundir::rep_key::kFindings))
            for (const auto& x : f->as_array()) {
                const auto& o = x.as_object();
                by_id[std::string(o.at("id").as_string())].push_back(std::string(o.at("scope").as_string()) + ": " +
                                                                    std::string(o.at("message").as_string()));
            }
    for (const auto& f : run_findings) by_id[f.id].push_back(f.scope + ": " + f.message);
    std::string md = "## What these numbers do not tell you\n\n";
    if (by_id.empty()) md += "No detector fired: no saturated generator, busy machine, box drift, rate limit or lagging open model was seen.\n";
    for (const auto& [id, lines] : by_id) {
        md += "- **" + id + "** (" + std::to_string(lines.size()) + "x)\n";
        std::set<std::string> seen;
        for (const auto& l : lines)
            if (seen.insert(l).second) md += "  - " + md_escape(l) + "\n";
    }
    md += "\n" + md_escape(standing_caveat(run)) + "\n";
    return md;
}

// "cgroup v1, 1.00 vCPU, 256 MiB, cpus 0-1" from the effective settings.
std::string box_text(const json::object& rep) {
    auto* b = rep.if_contains(rundir::rep_key::kBox);
    if (b == nullptr || !b->is_object()) return "no box";
    const auto& box = b->as_object();
    std::string text = box.contains("backend") ? std::string(box.at("backend").as_string()) : "cgroup";
    char buf[64];
    if (auto* cpu = box.if_contains("cpu"); cpu && cpu->is_object() && cpu->as_object().contains("vcpu") &&
                                             cpu->as_object().at("vcpu").is_number()) {
        std::snprintf(buf, sizeof(buf), ", %.2f vCPU", cpu->as_object().at("vcpu").to_number<double>());
        text += buf;
    } else {
        text += ", no CPU quota";
    }
    if (auto* m = box.if_contains("memory_max"); m && m->is_number()) {
        std::snprintf(buf, sizeof(buf), ", %.0f MiB", m->to_number<double>() / 1048576.0);
        text += buf;
    } else {
        text += ", no memory limit";
    }
    if (auto* c = box.if_contains("cpuset"); c && c->is_object() && c->as_object().contains("cpus_effective"))
        text += ", cpus " + std::string(c->as_object().at("cpus_effective").as_string());
    if (auto* io = box.if_contains("io"); io && io->is_object()) {
        text += ", io " + std::string(io->as_object().at("device").as_string());
        for (const char* k : {"read_iops", "write_iops", "read_bps", "write_bps"})
            if (auto* v = io->as_object().if_contains(k); v && v->is_number())
                text += " " + std::string(k) + "=" + std::to_string(v->to_number<std::uint64_t>());
    }
    return text;
}

std::string reps_markdown(const std::vector<json::object>& reps) {
    std::string md = "## Repetitions\n\n| Repetition | Status | Effective box | Reason |\n|---|---|---|---|\n";
    for (const auto& rep : reps) {
        std::string box = box_text(rep);
        md += "| " + std::string(rep.at(rundir::rep_key::kKey).as_string()) + " | " + std::string(rep.at(rundir::rep_key::kStatus).as_string()) + " | " +
              md_escape(box) + " | " + md_escape(rep.contains(rundir::rep_key::kReason) ? std::string(rep.at(rundir::rep_key::kReason).as_string()) : "") +
              " |\n";
    }
    return md + "\n";
}

// results.json, checked against its schema. JSON has no infinity: a number
// beyond a double (a spread's quotient of 1e300 / 1e-300) is written as
// null, and a finding, in the file and in `run_findings`, says which.
void write_results_json(const std::filesystem::path& file, json::object& results,
                        std::vector<detect::Finding>& run_findings) {
    json::value doc = std::move(results);
    const auto nulled = text::null_non_finite(doc);
    results = std::move(doc.as_object());
    for (const auto& where : nulled) {
        detect::Finding f{"not-finite", "results.json " + where, where + " is beyond a double: written as null"};
        results[rundir::results_key::kFindings].as_array().push_back(f.to_json());
        run_findings.push_back(std::move(f));
    }
    if (auto problems = rundir::results_problems(results); !problems.empty())
        throw std::logic_error("internal error: results.json would break its schema (docs/run-files.md): " +
                               problems.front());
    rundir::RunDirectory::write_atomically(file, json::serialize(results) + "\n");
}

}  // namespace

std::vector<std::string> plugin_labels(const json::object& run, const std::vector<json::object>& reps) {
    std::vector<std::string> labels;
    auto add = [&](const std::string& l) {
        if (std::find(labels.begin(), labels.end(), l) == labels.end()) labels.push_back(l);
    };
    if (auto* p = run.if_contains("plugins"); p && p->is_array())
        for (const auto& x : p->as_array())
            if (x.is_object() && x.as_object().contains("label")) add(std::string(x.as_object().at("label").as_string()));
    for (const auto& rep : reps) add(std::string(rep.at(rundir::rep_key::kPlugin).as_string()));
    return labels;
}

std::vector<PerRepRow> rows_of_reps(const std::vector<json::object>& reps) {
    std::vector<PerRepRow> rows;
    for (const auto& rep : reps) {
        if (rep.at(rundir::rep_key::kStatus) != "ok") continue;
        for (const auto& [metric, value] : rep.at(rundir::rep_key::kMetrics).as_object())
            if (value.is_number())
                rows.push_back({std::string(rep.at(rundir::rep_key::kPlugin).as_string()), rep.at(rundir::rep_key::kRep).to_number<std::int64_t>(),
                                std::string(metric), value.to_number<double>()});
    }
    return rows;
}

RunReportFiles write_run_report(const std::filesystem::path& run_dir) {
    rundir::RunDirectory dir(run_dir);
    auto run = dir.read_run_info();
    if (!run) throw std::runtime_error(run_dir.string() + ": no run.json (not a stand run directory)");
    auto reps = dir.read_all_reps();
    auto rows = rows_of_reps(reps);

    RunReportFiles files{run_dir / "results.json", run_dir / "per_rep.csv", run_dir / "summary.md",
                         run_dir / "report.html", {}};
    json::array rep_array;
    json::array findings;
    for (const auto& r : reps) {
        rep_array.push_back(r);
        if (auto* f = rundir::field(r, rundir::rep_key::kFindings))
            for (const auto& x : f->as_array()) findings.push_back(x);
    }
    std::vector<detect::CheckOutcome> checks;
    if (auto* c = run->if_contains("checks"); c && c->is_array()) checks = detect::evaluate_checks(c->as_array(), values_by_plugin(rows));
    json::array check_json;
    for (const auto& o : checks) {
        check_json.push_back(o.to_json());
        if (o.status == "fired")
            findings.push_back(detect::Finding{o.id, o.plugin + (o.metric.empty() ? "" : ", " + o.metric), o.message}.to_json());
    }
    std::vector<detect::Finding> run_findings;
    if (auto* p = run->if_contains("plugins"); p && p->is_array()) run_findings = detect::check_defaults_differ(reps, p->as_array());
    if (auto* f = run->if_contains("fleet_hosts"); f && f->is_array())
        for (auto& x : detect::check_shared_machine(f->as_array())) run_findings.push_back(std::move(x));
    for (auto& x : detect::check_run_host_tuning(*run)) run_findings.push_back(std::move(x));
    for (const auto& f : run_findings) findings.push_back(f.to_json());
    std::vector<detect::ThresholdOutcome> thresholds;
    if (auto* t = run->if_contains("thresholds"); t && t->is_array() && !t->as_array().empty())
        thresholds = detect::evaluate_thresholds(t->as_array(), reps, plugin_labels(*run, reps));
    using namespace rundir::results_key;
    json::object results;
    results[kSchemaVersion] = rundir::kResultsSchemaVersion;
    results[kRun] = *run;
    results[kSummary] = summaries(rows);
    results[kFindings] = findings;
    results[kChecks] = check_json;
    results[kReps] = rep_array;
    results[kSpreadRatios] = spread_ratios_json(*run, reps);
    if (!thresholds.empty()) {
        json::array t;
        for (const auto& o : thresholds) t.push_back(o.to_json());
        results[kThresholds] = std::move(t);
    }
    write_results_json(files.results_json, results, run_findings);

    std::ostringstream csv;
    write_per_rep_csv(csv, rows);
    rundir::RunDirectory::write_atomically(files.per_rep_csv, csv.str());

    // The verdict first: a terminal's `head summary.md` shows whether to trust what follows.
    std::string md = verdict_markdown(run_verdict(results));
    if (!thresholds.empty()) md += "**" + cell_text(thresholds_line(thresholds)) + ".**\n\n";
    md += "# " + std::string(run->at("scenario_name").as_string()) + "\n\n";
    md += "Run directory: `" + run_dir.string() + "`. Cells: median (min-max) over the repetitions that finished; "
          "n is their count.\n\n";
    md += thresholds_markdown(thresholds);
    md += tables_markdown(*run, rows, reps, (run_dir / "per_rep.csv").string());
    md += spread_ratios_markdown(*run, reps);
    md += adaptive_markdown(*run);
    md += checks_markdown(checks);
    md += proxy_defaults_markdown(reps);
    md += tls_sessions_markdown(reps);
    md += placement_markdown(reps);
    md += go_runtimes_markdown(reps);
    md += notes_markdown(reps);
    md += machine_markdown(*run, reps);
    md += reps_markdown(reps);
    md += findings_markdown(*run, reps, run_findings);
    rundir::RunDirectory::write_atomically(files.summary_md, md);
    rundir::RunDirectory::write_atomically(files.report_html, render_html_report(results, run_dir));
    files.thresholds = std::move(thresholds);
    return files;
}

}  // namespace stand::report
