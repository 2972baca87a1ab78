// What a repetition runs in: the scenario and the planned repetition, the
// run directory, the boxes, the sampler and backend the run set up, and the
// run's interrupt flag. Owned by the engine for the repetition's life.
#pragma once

#include "fleetrun/checked_hosts.hpp"
#include "fleetrun/controller_load.hpp"
#include "host/plugin_host.hpp"
#include "live/live_figures.hpp"
#include "rundir/run_directory.hpp"
#include "sampler/sampler.hpp"
#include "scenario/run_plan.hpp"
#include "scenario/scenario_model.hpp"
#include "target/backend.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <filesystem>
#include <functional>
#include <set>
#include <string>

namespace stand::scenario {

struct RepEnvironment {
    const Scenario& scenario;
    const PlannedRep& planned;
    std::filesystem::path plugin_file;
    const rundir::RunDirectory& dir;
    host::HostConfig host;               // run_dir, boxes, log
    sampler::Sampler* sampler = nullptr;  // the measured box's, when there is one
    const std::atomic<bool>& interrupted;
    std::function<void(const std::string& status)> on_step;  // progress text
    boost::json::object preface;         // box, machine snapshot, findings so far
    target::Backend* backend = nullptr;   // the scenario's backend, when it has one
    std::set<unsigned> generator_cpus;   // the load threads' CPUs; empty: anywhere
    // The scenario's generator hosts, opened and checked before the run
    // (EngineOptions::generators); null when it has none.
    const std::vector<fleetrun::CheckedHost>* generators = nullptr;
    // On a fleet host (stand run --fleet-host): the channel a load step
    // "from": "controller" asks the controller through; null otherwise.
    fleetrun::ControllerChannel* controller = nullptr;
    // A measured step's live status, about once a second (elapsed and
    // remaining time, rate, errors), with the repetition's prefix added.
    std::function<void(const std::string& status)> on_live;
    // The run's structured live figures (stand run --metrics-listen); null: none.
    live::LiveFigures* figures = nullptr;
    // The plugin implements stand.proxy/1: a load through it is what reaches
    // the backend, so the backend's connections per request are the proxy's
    // doing. Elsewhere (a panel's subscription storm beside tunnels to the
    // backend) they are not, and no load step reads them.
    bool through_proxy = false;
};

}  // namespace stand::scenario
