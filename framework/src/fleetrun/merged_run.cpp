#include "fleetrun/merged_run.hpp"

#include "rundir/run_directory.hpp"
#include "rundir/run_files.hpp"

#include <boost/json.hpp>

namespace stand::fleetrun {
namespace {

namespace json = boost::json;

std::string relabelled(const std::string& host, json::string_view label) { return host + "/" + std::string(label); }

json::object host_entry(const FleetHost& h, const json::object* host_run) {
    json::object o{{"name", h.name},
                   {"url", h.url},
                   {"clock_offset_ns", h.check.clock.offset_ns},
                   {"clock_uncertainty_ns", h.check.clock.uncertainty_ns},
                   {"exit_code", h.outcome.exit_code},
                   {"problem", h.outcome.problem},
                   {"remote_run_dir", h.outcome.remote_dir},
                   {"run_dir", h.outcome.fetched ? "hosts/" + h.name : std::string()}};
    if (auto* s = h.check.facts.if_contains("stand")) o["stand"] = *s;
    if (auto* b = h.check.facts.if_contains("boot_id")) o["boot_id"] = *b;
    if (host_run != nullptr)
        if (auto* f = host_run->if_contains("host_facts")) o["host_facts"] = *f;
    return o;
}

// One host's repetitions and samples into the merged run, relabelled.
void merge_reps(const rundir::RunDirectory& into, const FleetHost& h, const rundir::RunDirectory& from) {
    namespace key = rundir::rep_key;
    for (auto rep : from.read_all_reps()) {
        const std::string old_key(rep.at(key::kKey).as_string());
        const std::string new_key = h.name + "." + old_key;
        rep[key::kKey] = new_key;
        rep[key::kPlugin] = relabelled(h.name, rep.at(key::kPlugin).as_string());
        // A finding's scope begins with the plugin's label: "disk rep 1, ..." becomes "h1/disk rep 1, ...".
        if (auto* f = rep.if_contains(key::kFindings); f && f->is_array())
            for (auto& x : f->as_array())
                if (auto* scope = x.is_object() ? x.as_object().if_contains("scope") : nullptr; scope && scope->is_string())
                    *scope = relabelled(h.name, scope->as_string());
        rep.erase(key::kSchemaVersion);
        into.write_rep(new_key, rep);
        std::error_code ec;
        if (std::filesystem::exists(from.samples_file(old_key))) {
            std::filesystem::create_directories(into.samples_file(new_key).parent_path());
            std::filesystem::copy_file(from.samples_file(old_key), into.samples_file(new_key),
                                       std::filesystem::copy_options::overwrite_existing, ec);
        }
    }
}

}  // namespace

std::filesystem::path host_dir(const std::filesystem::path& run_dir, const std::string& host) {
    return run_dir / "hosts" / host;
}

json::object fleet_json(const std::vector<FleetHost>& hosts) {
    json::array list;
    for (const auto& h : hosts) list.push_back(host_entry(h, nullptr));
    return {{"schema_version", 1}, {"hosts", std::move(list)}};
}

bool write_merged_run(const std::filesystem::path& run_dir, const std::vector<FleetHost>& hosts) {
    const rundir::RunDirectory into(run_dir);
    into.create_layout();
    rundir::RunDirectory::write_atomically(run_dir / "fleet.json", json::serialize(fleet_json(hosts)) + "\n");
    std::optional<json::object> merged;
    json::array fleet_hosts, plugins;
    for (const auto& h : hosts) {
        std::optional<json::object> host_run;
        if (h.outcome.fetched) host_run = rundir::RunDirectory(host_dir(run_dir, h.name)).read_run_info();
        fleet_hosts.push_back(host_entry(h, host_run ? &*host_run : nullptr));
        if (!host_run) continue;
        if (!merged) merged = *host_run;
        if (auto* p = host_run->if_contains("plugins"); p && p->is_array())
            for (auto plugin : p->as_array()) {
                auto& o = plugin.as_object();
                o["label"] = relabelled(h.name, o.at("label").as_string());
                plugins.push_back(std::move(plugin));
            }
        merge_reps(into, h, rundir::RunDirectory(host_dir(run_dir, h.name)));
    }
    if (!merged) return false;
    merged->erase("host_facts");
    (*merged)["plugins"] = std::move(plugins);
    (*merged)["fleet_hosts"] = std::move(fleet_hosts);
    into.write_run_info(*merged);
    return true;
}

}  // namespace stand::fleetrun
