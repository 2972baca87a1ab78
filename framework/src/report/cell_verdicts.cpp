#include "report/cell_verdicts.hpp"

#include "rundir/run_files.hpp"

namespace stand::report {

namespace json = boost::json;

namespace {

// "machine-busy in nginx reps 1, 3" (", step D" for a step's finding)
std::string flag_text(const std::string& id, const std::string& plugin, const std::set<long long>& reps,
                      const std::string& step) {
    std::string list;
    for (auto r : reps) list += (list.empty() ? "" : ", ") + std::to_string(r);
    return id + " in " + plugin + (reps.size() == 1 ? " rep " : " reps ") + list + (step.empty() ? "" : ", step " + step);
}

void add_flags(TableCell& cell, const std::string& plugin, const std::string& step,
               const std::map<std::string, std::set<long long>>& ids) {
    for (const auto& [id, reps] : ids) cell.flags.push_back(flag_text(id, plugin, reps, step));
}

}  // namespace

RepFindings rep_findings(const std::vector<json::object>& reps) {
    RepFindings out;
    for (const auto& rep : reps) {
        const auto* plugin = rep.if_contains(rundir::rep_key::kPlugin);
        const auto* number = rep.if_contains(rundir::rep_key::kRep);
        const auto* findings = rep.if_contains(rundir::rep_key::kFindings);
        if (!plugin || !plugin->is_string() || !findings || !findings->is_array()) continue;
        // A repetition that did not finish fed no cell.
        if (const auto* status = rep.if_contains(rundir::rep_key::kStatus); status && status->is_string() && status->get_string() != rundir::rep_status::kOk)
            continue;
        const long long n = number && number->is_number() ? number->to_number<long long>() : 0;
        auto& steps = out.by_plugin[std::string(plugin->as_string())];
        for (const auto& f : findings->as_array()) {
            const auto* o = f.if_object();
            if (!o || !o->contains("id") || !o->contains("scope")) continue;
            const std::string id(o->at("id").as_string()), scope(o->at("scope").as_string());
            const auto at = scope.find(", step ");
            steps[at == std::string::npos ? "" : scope.substr(at + 7)][id].insert(n);
        }
    }
    return out;
}

void mark_cells(Table& table, const TableSpec& spec, const RepFindings& findings) {
    for (std::size_t r = 0; r < table.rows.size() && r < spec.rows.size(); ++r) {
        const std::string& metric = spec.rows[r].metric;
        const std::string step = metric.substr(0, metric.find('.'));
        for (std::size_t c = 0; c < table.columns.size() && c < table.rows[r].cells.size(); ++c) {
            const std::string& plugin = table.columns[c].plugin;
            const auto it = findings.by_plugin.find(plugin);
            if (it == findings.by_plugin.end()) continue;
            auto& cell = table.rows[r].cells[c];
            if (const auto whole = it->second.find(""); whole != it->second.end()) add_flags(cell, plugin, "", whole->second);
            if (const auto own = it->second.find(step); own != it->second.end() && !step.empty())
                add_flags(cell, plugin, step, own->second);
        }
    }
}

}  // namespace stand::report
