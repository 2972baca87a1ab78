#include "fleetrun/checked_hosts.hpp"

#include "fleet/fleet_error.hpp"

namespace stand::fleetrun {

std::vector<CheckedHost> open_checked_hosts(const std::vector<fleet::SshTarget>& targets, const fleet::SshOptions& ssh) {
    std::vector<CheckedHost> hosts;
    std::string refused;
    for (const auto& target : targets) {
        CheckedHost host;
        host.session = std::make_unique<fleet::SshSession>(target, ssh);
        try {
            host.check = fleet::check(*host.session);
        } catch (const fleet::FleetError& e) {
            host.check.problem = e.what();
        }
        if (!host.check.problem.empty()) refused += (refused.empty() ? "" : "\n") + host.check.problem;
        hosts.push_back(std::move(host));
    }
    if (!refused.empty()) throw fleet::FleetError(refused);
    return hosts;
}

}  // namespace stand::fleetrun
