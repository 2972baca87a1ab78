#include "report/cell_verdicts.hpp"

#include "rundir/run_files.hpp"

namespace stand::report {

namespace json = boost::json;

namespace {

std::string joined(const std::set<std::string>& ids) {
    std::string out;
    for (const auto& id : ids) out += (out.empty() ? "" : ", ") + id;
    return out;
}

}  // namespace

RepFindings rep_findings(const std::vector<json::object>& reps) {
    RepFindings out;
    for (const auto& rep : reps) {
        const auto* plugin = rep.if_contains(rundir::rep_key::kPlugin);
        const auto* findings = rep.if_contains(rundir::rep_key::kFindings);
        if (!plugin || !plugin->is_string() || !findings || !findings->is_array()) continue;
        const std::string name(plugin->as_string());
        for (const auto& f : findings->as_array()) {
            const auto* o = f.if_object();
            if (!o || !o->contains("id") || !o->contains("scope")) continue;
            const std::string id(o->at("id").as_string()), scope(o->at("scope").as_string());
            const auto at = scope.find(", step ");
            if (at == std::string::npos) out.whole_rep[name].insert(id);
            else out.by_step[name][scope.substr(at + 7)].insert(id);
        }
    }
    return out;
}

void mark_cells(Table& table, const TableSpec& spec, const RepFindings& findings) {
    for (std::size_t r = 0; r < table.rows.size() && r < spec.rows.size(); ++r) {
        const std::string& metric = spec.rows[r].metric;
        const std::string step = metric.substr(0, metric.find('.'));
        for (std::size_t c = 0; c < table.columns.size() && c < table.rows[r].cells.size(); ++c) {
            const auto plugin = findings.by_step.find(table.columns[c].plugin);
            if (plugin == findings.by_step.end()) continue;
            const auto ids = plugin->second.find(step);
            if (ids != plugin->second.end()) table.rows[r].cells[c].text += " \u26a0 " + joined(ids->second);
        }
    }
}

std::string whole_rep_line(const Table& table, const RepFindings& findings) {
    std::string out;
    for (const auto& col : table.columns)
        if (auto it = findings.whole_rep.find(col.plugin); it != findings.whole_rep.end())
            out += (out.empty() ? "" : "; ") + col.plugin + ": " + joined(it->second);
    return out.empty() ? out : "Detectors on whole repetitions (every row of that column): " + out + ".\n";
}

}  // namespace stand::report
