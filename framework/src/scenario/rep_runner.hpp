// Runs one repetition of one plugin: a fresh plugin worker, every phase's
// steps in order, each bounded by its timeout; the repetition's JSON is
// rewritten after every step. A failing step ends the repetition (status
// "failed", the step and the reason named), never the run.
#pragma once

#include "target/backend_process.hpp"
#include "host/plugin_host.hpp"
#include "sampler/sampler.hpp"
#include "rundir/run_directory.hpp"
#include "scenario/run_plan.hpp"
#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <functional>
#include <set>

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
    target::BackendProcess* backend = nullptr;   // the scenario's backend, when it has one
    std::set<unsigned> generator_cpus;   // the load threads' CPUs; empty: anywhere
};

// Returns the final repetition JSON ("status": ok | failed | interrupted).
boost::json::object run_repetition(RepEnvironment& env);

}  // namespace stand::scenario
