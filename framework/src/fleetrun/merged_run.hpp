// The controller's run directory of a scenario run on several hosts:
//
//   RUN_DIR/hosts/NAME/   each host's run directory as it came back
//   RUN_DIR/fleet.json    each host: address, its stand's facts, clock offset,
//                         how its run ended (exit code, problem)
//   RUN_DIR/run.json, reps/, samples/   one run over all hosts, from which
//                         `stand report` derives the usual report files
//
// In the merged run each host's repetitions carry the plugin label
// "NAME/label" and the key "NAME.key": every table gets a column per host
// (a line per host in the wide ones), and run.json's "fleet_hosts" gives the
// report each host's machine facts in place of the controller's.
#pragma once

#include "fleet/remote_stand.hpp"
#include "fleetrun/host_run.hpp"

#include <boost/json/object.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace stand::fleetrun {

struct FleetHost {
    std::string name;
    std::string url;
    fleet::HostCheck check;
    HostRunOutcome outcome;
};

std::filesystem::path host_dir(const std::filesystem::path& run_dir, const std::string& host);

// fleet.json's text.
boost::json::object fleet_json(const std::vector<FleetHost>& hosts);

// Writes fleet.json and the merged run from the host directories that came
// back with a run.json; false when none did (then only fleet.json is written).
bool write_merged_run(const std::filesystem::path& run_dir, const std::vector<FleetHost>& hosts);

}  // namespace stand::fleetrun
