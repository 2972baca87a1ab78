#include "report/battery_sections.hpp"
#include "rundir/run_files.hpp"

#include "report/machine_facts.hpp"
#include "report/markdown_text.hpp"
#include "text/number_format.hpp"
#include "stats/descriptive.hpp"

#include <map>
#include <set>

namespace stand::report {

namespace json = boost::json;

detect::RunValues values_by_plugin(const std::vector<PerRepRow>& rows) {
    detect::RunValues out;
    for (const auto& r : rows) out[r.plugin][r.metric].push_back(r.value);
    return out;
}

std::vector<std::string> plugins_with_values(const rundir::RunTable& table, const std::vector<PerRepRow>& rows,
                                             const std::vector<std::string>& plugins) {
    std::set<std::string> metrics;
    for (const auto& r : table.rows) metrics.insert(r.metric);
    std::set<std::string> with_values;
    for (const auto& row : rows)
        if (metrics.contains(row.metric)) with_values.insert(row.plugin);
    std::vector<std::string> out;
    for (const auto& p : plugins)
        if (with_values.contains(p)) out.push_back(p);
    return out;
}

std::string wide_table_markdown(const rundir::RunTable& table, const detect::RunValues& values) {
    std::string md = "| Plugin |";
    std::string rule = "|---|";
    for (const auto& r : table.rows) {
        md += " " + cell_text(r.label) + " |";
        rule += "---|";
    }
    md += "\n" + rule + "\n";
    bool any = false;
    for (const auto& [plugin, metrics] : values) {
        std::string line = "| " + cell_text(plugin) + " |";
        bool has = false;
        for (const auto& r : table.rows) {
            auto it = metrics.find(r.metric);
            if (it == metrics.end() || it->second.empty()) {
                line += " n/a |";
                continue;
            }
            has = true;
            const double v = stats::median(it->second);
            std::string cell = text::PrintfFormat(r.format).apply(v);
            if (!r.ratio_of.empty()) {
                auto other = metrics.find(r.ratio_of);
                if (other != metrics.end() && !other->second.empty() && v > 0)
                    cell += " (" + text::PrintfFormat("%.1fx").apply(stats::median(other->second) / v) + ")";
            }
            line += " " + cell_text(cell) + " |";
        }
        if (has) {
            md += line + "\n";
            any = true;
        }
    }
    if (!any) return "No plugin produced these metrics (a failed or skipped step).\n";
    return md;
}

std::string checks_markdown(const std::vector<detect::CheckOutcome>& outcomes) {
    if (outcomes.empty()) return "";
    std::string md;
    std::vector<const detect::CheckOutcome*> spread;
    for (const auto& o : outcomes)
        if (o.check == "anomalies") spread.push_back(&o);
    md += "## Anomalies\n\nPer-pass values of the metrics whose passes disagree by more than the scenario's ratio; the medians "
          "above hide them.\n\n";
    if (spread.empty()) md += "None: every metric's passes agree within the ratio.\n\n";
    else {
        md += "| Plugin | Metric | What happened |\n|---|---|---|\n";
        for (const auto* o : spread) md += "| " + cell_text(o->plugin) + " | " + cell_text(o->metric) + " | " + cell_text(o->message) + " |\n";
        md += "\n";
    }
    md += "## Pitfall checks\n\n";
    for (const char* status : {"fired", "not evaluated", "clear"})
        for (const auto& o : outcomes) {
            if (o.check == "anomalies" || o.status != status) continue;
            md += "- **" + std::string(status) + "** (" + o.check + (o.plugin.empty() ? "" : ", " + o.plugin) + "): " +
                  o.message + "\n";
        }
    return md + "\n";
}

std::string notes_markdown(const std::vector<json::object>& reps) {
    std::vector<std::string> notes;
    std::set<std::string> seen;
    for (const auto& rep : reps)
        if (auto* n = rep.if_contains(rundir::rep_key::kNotes); n && n->is_array())
            for (const auto& x : n->as_array())
                if (x.is_string() && seen.insert(std::string(x.as_string())).second) notes.emplace_back(x.as_string());
    if (notes.empty()) return "";
    std::string md = "## Caveats the probes reported\n\n";
    for (const auto& n : notes) md += "- " + n + "\n";
    return md + "\n";
}

std::string machine_markdown(const json::object& run, const std::vector<json::object>& reps) {
    std::string md;
    if (const auto machine = machine_facts(run); !machine.rows.empty()) {
        md += "## Machine\n\n| Fact |";
        for (const auto& c : machine.columns) md += " " + cell_text(c) + " |";
        md += "\n|---|";
        for (std::size_t i = 0; i < machine.columns.size(); ++i) md += "---|";
        md += "\n";
        for (const auto& [fact, values] : machine.rows) {
            md += "| " + cell_text(fact) + " |";
            for (const auto& v : values) md += " " + cell_text(v) + " |";
            md += "\n";
        }
        md += "\n";
    }
    // plugin -> fact -> distinct values over all probe steps and repetitions
    std::map<std::string, std::map<std::string, std::set<std::string>>> facts;
    for (const auto& rep : reps) {
        auto* pf = rep.if_contains(rundir::rep_key::kProbeFacts);
        if (pf == nullptr || !pf->is_object()) continue;
        const std::string plugin(rep.at(rundir::rep_key::kPlugin).as_string());
        for (const auto& [step, f] : pf->as_object())
            if (f.is_object())
                for (const auto& [k, v] : f.as_object())
                    if (k != "file" && k != "command") facts[plugin][std::string(k)].insert(fact_text(v));
    }
    if (facts.empty()) return md;
    md += "## Probe facts\n\nWhat the probes recorded about their tools and test directory (every distinct value).\n\n"
          "| Plugin | Fact | Value |\n|---|---|---|\n";
    for (const auto& [plugin, kv] : facts)
        for (const auto& [k, values] : kv) {
            std::string joined;
            for (const auto& v : values) joined += (joined.empty() ? "" : "; ") + v;
            md += "| " + cell_text(plugin) + " | " + cell_text(k) + " | " + cell_text(joined) + " |\n";
        }
    return md + "\n";
}

}  // namespace stand::report
