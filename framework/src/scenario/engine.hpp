// Runs a scenario: the plan of (repetition, plugin) pairs, each in a fresh
// box and a fresh plugin worker, results written as it goes, and the report
// files at the end. `--resume` skips the repetitions that already finished.
#pragma once

#include "fleetrun/checked_hosts.hpp"
#include "fleetrun/controller_load.hpp"
#include "live/live_figures.hpp"
#include "loader/plugin_search.hpp"
#include "scenario/scenario_model.hpp"

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>

namespace stand::scenario {

struct EngineOptions {
    std::filesystem::path run_dir;   // created when new
    bool resume = false;             // run_dir holds an earlier run of the same scenario
    bool allow_drift = false;        // run on although the box differs from the plan
    const loader::PluginSearch* search = nullptr;
    const std::atomic<bool>* interrupted = nullptr;  // set by the CLI's SIGINT/SIGTERM handling
    std::function<void(const std::string& line)> progress;  // one status line
    std::function<void(const std::string& line)> log;       // plain log lines
    // A measured step's live status about once a second ("[3/15 ETA 1m2s]
    // nginx_r1: keepalive 3 s elapsed, 7 s left, 16204/s, 0 errors"): a terminal shows it
    // in place of the progress line; elsewhere the caller thins it.
    std::function<void(const std::string& line)> live;
    // The same as structured figures, kept up to date for a reader on
    // another thread (stand run --metrics-listen); null: none.
    live::LiveFigures* figures = nullptr;
    // The scenario's "generators", each opened and checked (this build's
    // stand, its clock offset) by the caller before the run; null: none.
    const std::vector<fleetrun::CheckedHost>* generators = nullptr;
    // On a fleet host: the channel to the controller (load steps "from":
    // "controller"); null elsewhere.
    fleetrun::ControllerChannel* controller = nullptr;
    // The host of the scenario's backend ("backend": {"host": ...}), opened
    // and checked by the caller; null: the backend runs here.
    const fleetrun::CheckedHost* backend_host = nullptr;
};

struct EngineOutcome {
    std::size_t reps_ok = 0, reps_failed = 0, reps_skipped = 0;
    bool interrupted = false;
    std::string stopped_because;  // non-empty: the run stopped early (drift, no cgroups)
    std::string threshold_stop;   // non-empty: an "abort_on_fail" threshold was crossed for good, why
};

EngineOutcome run_scenario(const Scenario& scenario, const EngineOptions& options);

}  // namespace stand::scenario
