#include "fleetrun/fleet_run.hpp"

#include "fleetrun/checked_hosts.hpp"
#include "rundir/run_id.hpp"

#include <mutex>
#include <thread>

namespace stand::fleetrun {

namespace {

// Every host checked into `hosts`; throws FleetError naming every host that cannot be used.
std::vector<CheckedHost> checked(const std::vector<fleet::SshTarget>& targets, const fleet::SshOptions& ssh,
                                 std::vector<FleetHost>& hosts) {
    auto checked = open_checked_hosts(targets, ssh);
    for (std::size_t i = 0; i < targets.size(); ++i) {
        FleetHost host;
        host.name = targets[i].name;
        host.url = targets[i].url();
        host.check = checked[i].check;
        hosts.push_back(std::move(host));
    }
    return checked;
}

}  // namespace

std::vector<FleetHost> check_fleet(const std::vector<fleet::SshTarget>& targets, const fleet::SshOptions& ssh) {
    std::vector<FleetHost> hosts;
    checked(targets, ssh, hosts);
    return hosts;
}

FleetRunResult run_on_fleet(const FleetRunOptions& options) {
    FleetRunResult result;
    const auto sessions = checked(options.hosts, options.ssh, result.hosts);

    HostRunRequest request = options.request;
    request.run_name = rundir::new_run_id();
    std::filesystem::create_directories(options.run_dir);
    std::mutex log_mutex;
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < sessions.size(); ++i)
        threads.emplace_back([&, i] {
            auto& host = result.hosts[i];
            host.outcome = run_on_host(*sessions[i].session, request, host_dir(options.run_dir, host.name),
                                       *options.interrupted, [&](const std::string& line) {
                                           const std::lock_guard lock(log_mutex);
                                           options.log("[" + host.name + "] " + line);
                                       });
        });
    for (auto& t : threads) t.join();
    result.merged = write_merged_run(options.run_dir, result.hosts);
    return result;
}

}  // namespace stand::fleetrun
