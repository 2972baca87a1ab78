// `stand run SCENARIO --host ...` (or a scenario with "hosts"): the whole
// scenario on every host at once, one merged report (fleetrun/fleet_run.hpp).
#pragma once

#include "cli/args.hpp"
#include "fleetrun/checked_hosts.hpp"
#include "scenario/scenario_model.hpp"

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

namespace stand::cli {

// The options `stand run` takes for hosts.
std::vector<OptionSpec> host_options();

// The scenario's hosts with --host added or replacing by name; none with
// --fleet-host NAME (a host's own part of a run on hosts, as the
// controller starts it). UsageError for a malformed --host.
std::vector<fleet::SshTarget> hosts_of_run(const Args& args, const scenario::Scenario& scen);

// The scenario's "generators" with --generator added or replacing by
// name, when a load step names one; UsageError for a malformed
// --generator, or for generators in a run on hosts (not supported).
std::vector<fleet::SshTarget> generators_of_run(const Args& args, const scenario::Scenario& scen,
                                                const std::vector<fleet::SshTarget>& hosts);

// Opens and checks them (this build's stand, clock offsets): UsageError
// naming every one that cannot be used, before anything runs.
// `what` names them in the refusal ("generators", "the backend host").
std::vector<fleetrun::CheckedHost> open_run_hosts(const Args& args, const std::vector<fleet::SshTarget>& targets,
                                                  const std::string& what);

// The scenario's backend host ("backend": {"host": URL}), none or one;
// UsageError in a run on hosts (not supported).
std::vector<fleet::SshTarget> backend_host_of_run(const Args& args, const scenario::Scenario& scen,
                                                  const std::vector<fleet::SshTarget>& hosts);

// --check with hosts: each host checked as a run would check it; prints a
// line per host and returns 0, or names every refused host and returns 2.
int check_run_hosts(const Args& args, const std::vector<fleet::SshTarget>& hosts);

// Runs `scen` (as named on the command line: the file, --param, --plugin)
// on `hosts`; returns the exit code of `stand run`.
int run_on_hosts(const Args& args, const scenario::Scenario& scen, const std::vector<fleet::SshTarget>& hosts,
                 const std::filesystem::path& run_dir, const std::atomic<bool>& interrupted);

}  // namespace stand::cli
