#include "scenario/engine.hpp"

#include "box/stale_cleanup.hpp"
#include "detect/machine_busy.hpp"
#include "loader/config_secrets.hpp"
#include "rundir/run_directory.hpp"
#include "scenario/adaptive_reps.hpp"
#include "scenario/live_feed.hpp"
#include "scenario/threshold_watch.hpp"
#include "scenario/rep_resources.hpp"
#include "rundir/run_files.hpp"
#include "scenario/rep_runner.hpp"
#include "scenario/run_info.hpp"
#include "scenario/run_plan.hpp"

#include <chrono>
#include <cmath>
#include <memory>
#include <optional>

namespace stand::scenario {
namespace {

namespace json = boost::json;

// Seconds left, from the mean duration of the repetitions measured so far; none before the first.
std::optional<long> eta_seconds(std::chrono::steady_clock::duration elapsed, std::size_t done, std::size_t left) {
    if (done == 0) return std::nullopt;
    const double each = std::chrono::duration<double>(elapsed).count() / static_cast<double>(done);
    return std::lround(each * static_cast<double>(left));
}

// " ETA 3m10s".
std::string eta_text(std::optional<long> eta) {
    if (!eta) return "";
    const long total = *eta;
    return " ETA " + (total >= 60 ? std::to_string(total / 60) + "m" : std::string()) + std::to_string(total % 60) + "s";
}

// Groups whose owner died (a SIGKILLed run) would skew a fresh box's
// neighbours and hide this run's own leftovers; removed first.
void remove_stale_boxes(const box::CgroupLayout& layout, const std::function<void(const std::string&)>& log) {
    if (!layout.backend) return;
    auto stale = box::cleanup_stale_boxes(layout);
    for (const auto& d : stale.removed) log("removed a stale group of a dead run: " + d);
    if (stale.killed) log("killed " + std::to_string(stale.killed) + " process(es) left in stale groups");
    for (const auto& f : stale.failed) log("warning: could not remove a stale group: " + f);
}

// The run: its plan, run.json, and the loop over the planned repetitions.
class Run {
public:
    Run(const Scenario& scenario, const EngineOptions& options)
        : scenario_(scenario), options_(options), dir_(options.run_dir), plan_(make_run_plan(scenario)),
          adaptive_(scenario), thresholds_(scenario, plan_),
          interrupted_(options.interrupted ? *options.interrupted : never_), figures_(options.figures) {
        for (const auto& p : scenario.plugins) {
            auto plugin = options.search->resolve(p.id);
            plugin_files_.push_back(plugin->file);
            plugin_schemas_.push_back(plugin->config_schema);
            plugin_proxies_.push_back(plugin->implements("stand.proxy/1"));
            loader::register_config_secrets(p.config, plugin->config_schema);
        }
    }

    EngineOutcome run() {
        dir_.create_layout();
        if (figures_) figures_->set_planned(plan_.size());
        if (!options_.resume) {
            dir_.write_secrets(make_run_secrets(scenario_));
            dir_.write_run_info(make_run_info(scenario_, plan_, adaptive_, plugin_schemas_));
        }
        try {
            boxes_ = plan_run_boxes(scenario_);
        } catch (const RepSetupError& e) {
            outcome_.stopped_because = e.what();
            return outcome_;
        }
        remove_stale_boxes(boxes_.layout, [&](const std::string& line) { log(line); });
        // What the earlier process left in a plugin's data dir (a repetition it
        // did not finish) is no state a repetition may start from.
        if (options_.resume)
            for (const auto& p : scenario_.plugins) set_aside_data(p.label, p.label + ".before-resume", "the earlier run");
        const auto first_start = std::chrono::steady_clock::now();
        for (std::size_t at = 0, index = 0; at < plan_.size(); ++at) {
            const PlannedRep& planned = plan_[at];
            if (adaptive_.stopped(planned.plugin)) continue;
            ++index;
            if (interrupted_.load()) {
                outcome_.interrupted = true;
                break;
            }
            if (done_earlier(planned)) {
                if (!outcome_.threshold_stop.empty()) break;
                continue;
            }
            // Adaptive: the plan's entries of plugins that have not stopped, an upper bound.
            const std::size_t left = adaptive_.left_in(plan_, at);
            const auto eta = eta_seconds(std::chrono::steady_clock::now() - first_start, measured_, left);
            const std::string prefix = "[" + std::to_string(index) + "/" + (adaptive_.active() ? "≤" : "") +
                                       std::to_string(index - 1 + left) + eta_text(eta) + "] " + planned.key;
            if (figures_) {
                figures_->set_planned(index - 1 + left);
                figures_->repetition_started(index, scenario_.plugins[planned.plugin].label, planned.rep,
                                             eta ? std::optional<double>(static_cast<double>(*eta)) : std::nullopt);
            }
            if (!run_one(planned, prefix)) break;
        }
        if (interrupted_.load()) outcome_.interrupted = true;  // a signal after the last repetition's steps
        return outcome_;
    }

private:
    void log(const std::string& line) const {
        if (options_.log) options_.log(line);
    }

    // The next repetition of `plugin` starts with no data dir, as its first did.
    void set_aside_data(const std::string& plugin, const std::string& name, const std::string& left_by) const {
        const auto to = dir_.set_aside_data(plugin, name);
        if (!to.empty())
            log("the data dir " + plugin + " as " + left_by + " left it is kept as " +
                to.lexically_relative(dir_.root()).string() + "; the next repetition starts without it");
    }

    // After each decision, so that an interrupted run's run.json says where each plugin stood.
    void note_decision(std::size_t plugin, const json::object& rep) {
        const auto decision = adaptive_.record(plugin, rep);
        if (!decision) return;
        log(adaptive_.progress_text(plugin, *decision));
        if (auto info = dir_.read_run_info()) {
            (*info)["adaptive_repetitions"] = adaptive_.to_json();
            dir_.write_run_info(*info);
        }
    }

    // --resume: a repetition that finished in the earlier run is kept.
    bool done_earlier(const PlannedRep& planned) {
        auto earlier = dir_.read_rep(planned.key);
        if (!earlier) return false;
        auto status = rundir::field(*earlier, rundir::rep_key::kStatus);
        if (!status || !status->is_string()) return false;
        const std::string_view was(status->get_string());
        if (was != rundir::rep_status::kOk && was != rundir::rep_status::kFailed) return false;
        ++outcome_.reps_skipped;
        if (figures_) figures_->repetition_finished("skipped");
        log("skip " + planned.key + " (" + std::string(status->as_string()) + " in the earlier run)");
        note_decision(planned.plugin, *earlier);
        watch_thresholds(planned.plugin, *earlier);
        return true;
    }

    host::HostConfig host_config() const {
        host::HostConfig host;
        host.run_dir = dir_.root();
        host.allow_remote_targets = scenario_.allow_remote;
        host.log = [this](int level, const std::string& id, const std::string& message) {
            log("[" + id + "] " + (level >= STAND_LOG_WARNING ? "warning: " : "") + message);
        };
        return host;
    }

    // One repetition; false when the run stops (interrupted, or its setup failed).
    bool run_one(const PlannedRep& planned, const std::string& prefix) {
        if (options_.progress) options_.progress(prefix + ": checking the machine");
        json::object preface;
        json::array findings;
        auto machine = detect::snapshot_machine();
        preface[rundir::rep_key::kMachine] = machine.to_json();
        for (auto& f : detect::check_machine(machine, scenario_.plugins[planned.plugin].label + " rep " +
                                                          std::to_string(planned.rep)))
            findings.push_back(f.to_json());

        std::unique_ptr<RepResources> resources;
        try {
            resources = std::make_unique<RepResources>(
                scenario_, boxes_, dir_, planned.key, options_.allow_drift, preface, findings,
                options_.backend_host != nullptr ? options_.backend_host->session.get() : nullptr);
        } catch (const RepSetupError& e) {
            outcome_.stopped_because = e.what();
            preface[rundir::rep_key::kKey] = planned.key;
            preface[rundir::rep_key::kPlugin] = scenario_.plugins[planned.plugin].label;
            preface[rundir::rep_key::kRep] = planned.rep;
            preface[rundir::rep_key::kStatus] = rundir::rep_status::kFailed;
            preface[rundir::rep_key::kReason] = outcome_.stopped_because;
            preface[rundir::rep_key::kFindings] = findings;
            dir_.write_rep(planned.key, preface);
            ++outcome_.reps_failed;
            if (figures_) figures_->repetition_finished(rundir::rep_status::kFailed);
            return false;
        }
        preface[rundir::rep_key::kFindings] = findings;
        host::HostConfig host = host_config();
        if (resources->measured()) host.boxes["measured"] = resources->measured()->dirs();
        RepEnvironment env{scenario_,
                           planned,
                           plugin_files_[planned.plugin],
                           dir_,
                           host,
                           resources->sampler(),
                           interrupted_,
                           [&](const std::string& step) {
                               if (options_.progress) options_.progress(prefix + ": " + step);
                           },
                           preface,
                           resources->backend(),
                           boxes_.placement ? boxes_.placement->generator : box::CpuSet{},
                           options_.generators,
                           options_.controller,
                           [&](const std::string& status) {
                               if (options_.live) options_.live(prefix + ": " + status);
                           },
                           figures_,
                           plugin_proxies_[planned.plugin]};
        json::object rep;
        {
            const live::BoxSourceScope box_figures(figures_, box_source(resources->sampler()));
            rep = run_repetition(env);
        }
        resources->finish(dir_.samples_file(planned.key));
        ++measured_;
        const std::string status(rundir::field(rep, rundir::rep_key::kStatus)->as_string());
        if (figures_) figures_->repetition_finished(status);
        if (status == rundir::rep_status::kOk) ++outcome_.reps_ok;
        else if (status == rundir::rep_status::kInterrupted) outcome_.interrupted = true;
        else ++outcome_.reps_failed;
        const auto* reason = rundir::field(rep, rundir::rep_key::kReason);
        log(planned.key + ": " + status + (reason ? " - " + std::string(reason->as_string()) : ""));
        if (status != rundir::rep_status::kOk)
            set_aside_data(scenario_.plugins[planned.plugin].label, planned.key, planned.key);
        if (outcome_.interrupted) return false;
        note_decision(planned.plugin, rep);
        return !watch_thresholds(planned.plugin, rep);
    }

    // True when an "abort_on_fail" threshold is crossed for good: the run stops.
    bool watch_thresholds(std::size_t plugin, const json::object& rep) {
        auto why = thresholds_.record(plugin, rep);
        if (!why) return false;
        outcome_.threshold_stop = *why;
        log(*why);
        if (auto info = dir_.read_run_info()) {
            (*info)["threshold_stop"] = *why;
            dir_.write_run_info(*info);
        }
        return true;
    }

    static inline const std::atomic<bool> never_{false};
    const Scenario& scenario_;
    const EngineOptions& options_;
    rundir::RunDirectory dir_;
    std::vector<std::filesystem::path> plugin_files_;
    std::vector<std::string> plugin_schemas_;  // each plugin's config schema (its secrets)
    std::vector<bool> plugin_proxies_;         // each plugin implements stand.proxy/1
    std::vector<PlannedRep> plan_;
    AdaptiveReps adaptive_;
    ThresholdWatch thresholds_;
    const std::atomic<bool>& interrupted_;
    live::LiveFigures* const figures_;
    RunBoxes boxes_;
    EngineOutcome outcome_;
    std::size_t measured_ = 0;  // repetitions this process ran (for the ETA)
};

}  // namespace

EngineOutcome run_scenario(const Scenario& scenario, const EngineOptions& options) {
    return Run(scenario, options).run();
}

}  // namespace stand::scenario
