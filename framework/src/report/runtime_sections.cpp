#include "report/runtime_sections.hpp"
#include "rundir/run_files.hpp"

#include "report/markdown_text.hpp"

#include <set>

namespace stand::report {

namespace json = boost::json;

std::string go_runtimes_markdown(const std::vector<json::object>& reps) {
    std::set<std::string> rows, notes;
    for (const auto& rep : reps) {
        const std::string plugin = rep.contains(rundir::rep_key::kPlugin) ? fact_text(rep.at(rundir::rep_key::kPlugin)) : "?";
        if (const auto* g = rep.if_contains(rundir::rep_key::kGoRuntimes); g && g->is_array())
            for (const auto& x : g->as_array()) {
                const auto* o = x.if_object();
                if (o == nullptr) continue;
                auto field = [&](const char* k) {
                    const auto* v = o->if_contains(k);
                    return v == nullptr || v->is_null() ? std::string("-") : cell_text(fact_text(*v));
                };
                std::string limit = "none";
                if (const auto* q = o->if_contains("cpu_quota_us"); q && q->is_number())
                    limit = field("cpu_quota_us") + " / " + field("cpu_period_us") + " us";
                rows.insert("| " + cell_text(plugin) + " | " + field("process") + " | " + field("go_version") + " | " +
                            field("gomaxprocs_env") + " | " + field("affinity_cpus") + " | " + limit +
                            (o->contains("own_cgroup_namespace") && o->at("own_cgroup_namespace") == true
                                 ? " (own cgroup namespace)"
                                 : "") +
                            " | " + field("gomaxprocs") + " | " + field("gomaxprocs_how") + " |");
            }
        if (const auto* n = rep.if_contains(rundir::rep_key::kGoRuntimeNotes); n && n->is_array())
            for (const auto& x : n->as_array())
                if (x.is_string()) notes.insert(plugin + ": " + std::string(x.as_string()));
    }
    if (rows.empty()) return "";
    std::string md = "## Go runtimes in the box\n\nThe scheduler size (Ps, GOMAXPROCS) each Go program chose, from its "
                     "build info, environment, CPU affinity and the quota of its own cgroup.\n\n"
                     "| Plugin | Process | Go | GOMAXPROCS env | CPUs | Quota it sees | Ps | Why |\n"
                     "|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : rows) md += r + "\n";
    md += "\n";
    for (const auto& n : notes) md += "- " + n + "\n";
    return notes.empty() ? md : md + "\n";
}

}  // namespace stand::report
