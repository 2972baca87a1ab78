// `stand fleet collect RUN_DIR`: the runs of a run on hosts that did not
// come back (a dropped connection leaves the host's stand running, its run
// directory filling on the host) are copied back once they have ended, and
// the merged run is written again with them.
#pragma once

#include "fleet/ssh_session.hpp"
#include "fleetrun/merged_run.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace stand::fleetrun {

// The hosts of RUN_DIR/fleet.json as the run left them; throws
// fleet::FleetError naming the file when it is missing or malformed.
std::vector<FleetHost> read_fleet_hosts(const std::filesystem::path& run_dir);

struct CollectedHost {
    std::string name;
    enum class State { was_there, collected, still_running, failed } state = State::was_there;
    std::string problem;  // failed: why
};

// Each host whose run directory is not in RUN_DIR: asked whether its stand
// still runs; if not, its run directory copied back. Then fleet.json and the
// merged run are written again (the caller writes the report). Throws
// fleet::FleetError when RUN_DIR is not a run on hosts.
std::vector<CollectedHost> collect_fleet_run(const std::filesystem::path& run_dir, const fleet::SshOptions& ssh);

}  // namespace stand::fleetrun
