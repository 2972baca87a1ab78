#include "fleetrun/collect.hpp"

#include "fleet/fleet_error.hpp"
#include "fleet/ssh_target.hpp"
#include "rundir/run_directory.hpp"

#include <boost/json.hpp>


namespace stand::fleetrun {
namespace {

namespace json = boost::json;

FleetHost host_of(const json::object& o) {
    FleetHost h;
    h.name = std::string(o.at("name").as_string());
    h.url = std::string(o.at("url").as_string());
    h.check.clock.offset_ns = o.at("clock_offset_ns").to_number<std::int64_t>();
    h.check.clock.uncertainty_ns = o.at("clock_uncertainty_ns").to_number<std::int64_t>();
    for (const char* key : {"stand", "boot_id"})
        if (auto* v = o.if_contains(key)) h.check.facts[key] = *v;
    h.outcome.exit_code = o.at("exit_code").to_number<int>();
    h.outcome.problem = std::string(o.at("problem").as_string());
    h.outcome.remote_dir = std::string(o.at("remote_run_dir").as_string());
    h.outcome.fetched = !o.at("run_dir").as_string().empty();
    return h;
}

CollectedHost collect_host(const std::filesystem::path& run_dir, FleetHost& h, const fleet::SshOptions& ssh) {
    CollectedHost c;
    c.name = h.name;
    if (h.outcome.fetched) return c;
    try {
        const fleet::SshSession session(fleet::parse_host_arg(h.name + "=" + h.url), ssh);
        if (still_running(session, h.outcome.remote_dir)) {
            c.state = CollectedHost::State::still_running;
            return c;
        }
        std::string problem;
        std::filesystem::remove_all(host_dir(run_dir, h.name));
        if (!fetch_run_dir(session, h.outcome.remote_dir, host_dir(run_dir, h.name), problem)) {
            c.state = CollectedHost::State::failed;
            c.problem = problem;
            return c;
        }
    } catch (const std::exception& e) {
        c.state = CollectedHost::State::failed;
        c.problem = e.what();
        return c;
    }
    h.outcome.fetched = true;
    h.outcome.problem += " (its run directory was collected after the run ended there: stand fleet collect)";
    c.state = CollectedHost::State::collected;
    return c;
}

}  // namespace

std::vector<FleetHost> read_fleet_hosts(const std::filesystem::path& run_dir) {
    const auto file = run_dir / "fleet.json";
    std::vector<FleetHost> hosts;
    try {
        const json::value doc = json::parse(rundir::RunDirectory::read_file(file));
        for (const auto& h : doc.at("hosts").as_array()) hosts.push_back(host_of(h.as_object()));
    } catch (const std::exception& e) {
        throw fleet::FleetError(file.string() + ": not a fleet.json of a run on hosts (docs/run-files.md): " +
                                 e.what());
    }
    return hosts;
}

std::vector<CollectedHost> collect_fleet_run(const std::filesystem::path& run_dir, const fleet::SshOptions& ssh) {
    auto hosts = read_fleet_hosts(run_dir);
    std::vector<CollectedHost> out;
    bool any = false;
    for (auto& h : hosts) {
        out.push_back(collect_host(run_dir, h, ssh));
        any = any || out.back().state == CollectedHost::State::collected;
    }
    if (any) write_merged_run(run_dir, hosts);
    return out;
}

}  // namespace stand::fleetrun
