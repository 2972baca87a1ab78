#include "fleetrun/fleet_run.hpp"

#include "fleet/fleet_error.hpp"
#include "fleet/remote_stand.hpp"

#include <memory>
#include <mutex>
#include <thread>

namespace stand::fleetrun {

namespace {

using Sessions = std::vector<std::unique_ptr<fleet::SshSession>>;

// A session per host, each host checked into `hosts`; throws FleetError
// naming every host that cannot be used.
Sessions checked_sessions(const std::vector<fleet::SshTarget>& targets, const fleet::SshOptions& ssh,
                          std::vector<FleetHost>& hosts) {
    Sessions sessions;
    std::string refused;
    for (const auto& target : targets) {
        sessions.push_back(std::make_unique<fleet::SshSession>(target, ssh));
        FleetHost host;
        host.name = target.name;
        host.url = target.url();
        try {
            host.check = fleet::check(*sessions.back());
        } catch (const fleet::FleetError& e) {
            host.check.problem = e.what();
        }
        if (!host.check.problem.empty()) refused += (refused.empty() ? "" : "\n") + host.check.problem;
        hosts.push_back(std::move(host));
    }
    if (!refused.empty()) throw fleet::FleetError(refused);
    return sessions;
}

}  // namespace

std::vector<FleetHost> check_fleet(const std::vector<fleet::SshTarget>& targets, const fleet::SshOptions& ssh) {
    std::vector<FleetHost> hosts;
    checked_sessions(targets, ssh, hosts);
    return hosts;
}

FleetRunResult run_on_fleet(const FleetRunOptions& options) {
    FleetRunResult result;
    const Sessions sessions = checked_sessions(options.hosts, options.ssh, result.hosts);

    HostRunRequest request = options.request;
    request.run_name = options.run_dir.filename().string();
    std::filesystem::create_directories(options.run_dir);
    std::mutex log_mutex;
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < sessions.size(); ++i)
        threads.emplace_back([&, i] {
            auto& host = result.hosts[i];
            host.outcome = run_on_host(*sessions[i], request, host_dir(options.run_dir, host.name),
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
