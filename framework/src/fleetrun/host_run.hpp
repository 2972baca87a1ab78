// One scenario run on one fleet host. The remote side is the host's pushed
// stand (fleet/remote_stand.hpp) running `stand run` exactly as it runs
// locally, boxes, sampler and plugin workers included; its run directory is
// copied back to the controller when it ends, however it ends.
//
// On the host, under ~/.stand/runs/RUN_ID/ (a new one per run): pid (the remote stand's),
// request/ (the scenario file,
// its params and plugin configs, mode 0600: nothing secret goes on a command
// line) and run/ (the run directory, written after every step). The remote
// stand ignores SIGPIPE, so a dropped connection does not stop it: what it
// measures stays in run/ on the host.
#pragma once

#include "fleet/ssh_session.hpp"

#include <boost/json/object.hpp>

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace stand::fleetrun {

struct PluginConfig {
    std::string id;
    boost::json::object config;
};

struct HostRunRequest {
    std::string run_name;                  // the run's unique id (rundir/run_id.hpp): [A-Za-z0-9_.-]
    std::string scenario_file_name;        // its file name (no directory), for the host's copy
    std::string scenario_text;             // the scenario file as given
    boost::json::object params;            // --param NAME -> the value as given (a string)
    std::vector<PluginConfig> plugins;     // --plugin overrides; empty: the scenario's own
};

struct HostRunOutcome {
    int exit_code = -1;          // the remote `stand run`'s; -1 when it did not end on its own
    std::string problem;         // "" when it ended on its own; else why not (names the host)
    bool fetched = false;        // its run directory is in `local_dir`
    std::string remote_dir;      // the run directory on the host, relative to the remote home
};

// The remote directory of a run: ".stand/runs/RUN_ID".
// The remote run directory `remote_dir` (relative to the host's home) into
// `local_dir`; false (with `problem` set when it is still empty) when it
// cannot be copied.
bool fetch_run_dir(const fleet::SshSession& session, const std::string& remote_dir,
                   const std::filesystem::path& local_dir, std::string& problem);

// Whether the stand that writes `remote_dir` still runs there.
bool still_running(const fleet::SshSession& session, const std::string& remote_dir);

std::string remote_run_root(const std::string& run_name);

// A line the remote stand printed, as the controller relays it: its
// advice to resume there ("finish with: stand run --resume DIR") dropped, as
// a run on hosts is not resumed; any other line as it is.
std::string relayed_host_line(const std::string& line);

// Runs `request` on the host and copies its run directory to `local_dir`.
// `on_line` gets every line the remote stand prints (relayed_host_line), on this thread. When
// `interrupted` becomes true, the remote stand gets SIGINT and stops as it
// does on Ctrl-C (cleanly, keeping what it measured). Never throws for what
// a host or connection does: that is `problem`.
HostRunOutcome run_on_host(const fleet::SshSession& session, const HostRunRequest& request,
                           const std::filesystem::path& local_dir, const std::atomic<bool>& interrupted,
                           const std::function<void(const std::string&)>& on_line);

}  // namespace stand::fleetrun
