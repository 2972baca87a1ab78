// The hosts of a run or a load, each with its session open and checked as
// a run checks it (fleet::check: this build's stand, its facts, its clock
// offset), before anything runs anywhere.
#pragma once

#include "fleet/remote_stand.hpp"
#include "fleet/ssh_session.hpp"

#include <memory>
#include <vector>

namespace stand::fleetrun {

struct CheckedHost {
    std::unique_ptr<fleet::SshSession> session;
    fleet::HostCheck check;
};

// In the order given. Throws FleetError naming every host that cannot be
// used (one line each), after trying them all.
std::vector<CheckedHost> open_checked_hosts(const std::vector<fleet::SshTarget>& targets, const fleet::SshOptions& ssh);

}  // namespace stand::fleetrun
