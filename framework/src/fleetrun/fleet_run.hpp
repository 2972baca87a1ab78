// A scenario run on several hosts at once, each running all of it (the
// battery across hosts): every host is checked before anything runs (its
// stand must be this build: version, ABI, build-id), then each runs the
// scenario on its own thread (fleetrun/host_run.hpp), and the controller's
// run directory gets what came back (fleetrun/merged_run.hpp). A host that
// fails or drops its connection costs only its own repetitions.
#pragma once

#include "fleet/ssh_session.hpp"
#include "fleetrun/host_run.hpp"
#include "fleetrun/merged_run.hpp"

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace stand::fleetrun {

struct FleetRunOptions {
    std::vector<fleet::SshTarget> hosts;  // distinct names
    fleet::SshOptions ssh;
    std::filesystem::path run_dir;        // its file name is the run's name on the hosts
    HostRunRequest request;               // run_name is set to a new run id (rundir/run_id.hpp)
    const std::atomic<bool>* interrupted = nullptr;
    // Called from the hosts' threads, one call at a time.
    std::function<void(const std::string&)> log;
};

struct FleetRunResult {
    std::vector<FleetHost> hosts;
    bool merged = false;  // the run directory has a merged run.json (some host's run came back)
};

// Each host checked as a run checks it (fleet::check); throws FleetError
// naming every host that cannot be used.
std::vector<FleetHost> check_fleet(const std::vector<fleet::SshTarget>& hosts, const fleet::SshOptions& ssh);

// Throws FleetError naming every host that cannot be used, before any runs.
FleetRunResult run_on_fleet(const FleetRunOptions& options);

}  // namespace stand::fleetrun
