// One load from several generator hosts at once (issue 19, "several
// generators for one load step"). Each host's pushed stand runs `stand load`
// with the same arguments (uploaded as a file, mode 0600: a header may hold
// a token) and its even share of the open model's rate and of --requests,
// from one start instant: the controller's clock a few seconds ahead, plus
// each host's measured clock offset. Each writes its histograms
// (--histogram-out), which come back here to be merged exactly
// (fleetrun/merged_load.hpp). With a link plan, each generator's link to
// the target is shaped and its RTT measured back before the start
// (fleetrun/link_shaping.hpp). A generator that fails costs only its own
// share; Ctrl-C here reaches every generator as SIGINT, and what each
// measured until then comes back.
#pragma once

#include "fleetrun/checked_hosts.hpp"
#include "fleetrun/link_shaping.hpp"
#include "load/histogram_file.hpp"

#include <boost/json/object.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stand::fleetrun {

struct GeneratorLoadRequest {
    // `stand load` arguments every generator gets: the URLs and options,
    // without --rate, --requests, --start-at, --histogram-out and --json.
    std::vector<std::string> load_args;
    double rate = 0;                // the open model's total rate; 0: the closed model
    std::uint64_t max_requests = 0;  // the total; 0: no limit
    std::chrono::seconds lead{3};          // how far ahead of now the start is set
    // Declared conditions on each generator's link to `target_address` (an
    // IP literal: the first URL's host), measured back with `probe_args`
    // (a `stand load` of sequential new connections to the target).
    std::optional<LinkPlan> link;
    std::string target_address;
    std::vector<std::string> probe_args;
};

struct GeneratorOutcome {
    std::string name;
    std::string url;
    fleet::ClockOffset clock;       // its clock minus the controller's
    double rate = 0;                // its share
    std::uint64_t max_requests = 0;  // its share
    std::int64_t start_at_host_ns = 0;  // the start instant on its own clock
    int exit_code = -1;             // its `stand load`'s; -1 when it did not end on its own
    std::string problem;            // "" when its result and histograms came back
    boost::json::object result;     // its stand.load/1 JSON (with "start"), when it printed one
    load::HistogramSet histograms;  // when they came back
    // With a link plan: the plan, the interface, the RTT measured before
    // and with it (median TCP connect, µs), whether that is as planned, and
    // "removed" (false: it may still be on, `net_problem` says what to run).
    boost::json::object net;
    std::string net_problem;
};

struct GeneratorLoadResult {
    // False when a generator could not be made ready (its request file, its
    // qdisc): then none started, nothing was sent, and its `problem` says why.
    bool started = false;
    std::int64_t start_at_ns = 0;  // on the controller's clock
    std::vector<GeneratorOutcome> generators;
};

// The `stand load` arguments of the RTT probe towards `url`: ten requests
// one after another, each on a new connection (its connect time is one
// round trip), with `extra` (--insecure, --host ...) before the URL.
std::vector<std::string> rtt_probe_args(const std::string& url, const std::vector<std::string>& extra);

// `hosts` were checked (open_checked_hosts); they stay the caller's. Never throws for what a host
// or a connection does: that is a generator's `problem`.
GeneratorLoadResult run_on_generators(const std::vector<const CheckedHost*>& hosts, const GeneratorLoadRequest& request,
                                      const std::atomic<bool>& interrupted);

}  // namespace stand::fleetrun
