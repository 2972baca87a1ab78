#include "scenario/engine.hpp"

#include "box/block_device.hpp"
#include "box/box.hpp"
#include "box/cpu_placement.hpp"
#include "box/stale_cleanup.hpp"
#include "detect/host_facts.hpp"
#include "detect/machine_busy.hpp"
#include "sampler/sample_csv.hpp"
#include "sampler/sample_source.hpp"
#include "scenario/adaptive_reps.hpp"
#include "target/backend_process.hpp"
#include "scenario/rep_runner.hpp"
#include "rundir/run_directory.hpp"
#include "scenario/run_plan.hpp"

#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace stand::scenario {
namespace {

namespace json = boost::json;

box::BoxPlan box_plan(const BoxSpec& spec, const char* name) {
    box::BoxPlan plan;
    plan.name = name;
    plan.vcpu = spec.vcpu;
    plan.memory_max = spec.memory_bytes;
    plan.swap_max = spec.swap_bytes;
    plan.cpuset = spec.pin;
    if (spec.io) {
        const auto disk = box::whole_disk_of(spec.io->path);
        plan.io = box::IoLimit{spec.io->path, disk.numbers, spec.io->read_iops, spec.io->write_iops, spec.io->read_bps,
                               spec.io->write_bps};
    }
    return plan;
}

std::string run_id_of(const std::filesystem::path& dir) {
    std::string id;
    for (char c : dir.filename().string()) id += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return id.empty() ? std::string("run") : id;
}

// " ETA 3m10s" from the mean duration of the repetitions measured so far.
std::string eta_text(std::chrono::steady_clock::duration elapsed, std::size_t done, std::size_t left) {
    if (done == 0) return "";
    const double each = std::chrono::duration<double>(elapsed).count() / static_cast<double>(done);
    const long total = std::lround(each * static_cast<double>(left));
    return " ETA " + (total >= 60 ? std::to_string(total / 60) + "m" : std::string()) + std::to_string(total % 60) + "s";
}

}  // namespace

EngineOutcome run_scenario(const Scenario& scenario, const EngineOptions& options) {
    EngineOutcome outcome;
    rundir::RunDirectory dir(options.run_dir);
    static const std::atomic<bool> never{false};
    const std::atomic<bool>& interrupted = options.interrupted ? *options.interrupted : never;
    auto log = [&](const std::string& line) {
        if (options.log) options.log(line);
    };

    std::vector<std::filesystem::path> plugin_files;
    for (const auto& p : scenario.plugins) plugin_files.push_back(options.search->resolve(p.id)->file);

    auto plan = make_run_plan(scenario);
    AdaptiveReps adaptive(scenario);
    json::array plan_json;
    for (const auto& p : plan) plan_json.push_back({{"key", p.key}, {"rep", p.rep}, {"plugin", scenario.plugins[p.plugin].label}});
    json::array tables;
    for (const auto& t : scenario.tables) {
        json::array rows;
        for (const auto& r : t.rows) {
            json::object row{{"label", r.label}, {"metric", r.metric}, {"format", r.format}};
            if (!r.ratio_of.empty()) row["ratio_of"] = r.ratio_of;
            rows.push_back(std::move(row));
        }
        tables.push_back({{"title", t.title}, {"layout", t.layout}, {"rows", std::move(rows)}});
    }
    json::array plugins;
    for (const auto& p : scenario.plugins) plugins.push_back({{"id", p.id}, {"label", p.label}, {"config", p.config}});
    if (!options.resume) {
        json::object run_info{{"schema_version", 1},
                              {"tables", std::move(tables)},
                              {"plugins", std::move(plugins)},
                              {"scenario_file", std::filesystem::absolute(scenario.file).string()},
                              {"scenario_name", scenario.name},
                              {"started_unix", static_cast<std::int64_t>(std::time(nullptr))},
                              {"host_version", STAND_HOST_VERSION},
                              {"params", scenario.params},
                              {"checks", scenario.checks},
                              {"spread_ratios", scenario.spread_ratios},
                              {"host_facts", detect::collect_host_facts()},
                              {"plan", plan_json}};
        if (adaptive.active()) run_info["adaptive_repetitions"] = adaptive.to_json();
        dir.write_run_info(run_info);
    }
    // After each decision, so that an interrupted run's run.json says where each plugin stood.
    auto note_decision = [&](std::size_t plugin, const json::object& rep) {
        const auto decision = adaptive.record(plugin, rep);
        if (!decision) return;
        log(adaptive.progress_text(plugin, *decision));
        if (auto info = dir.read_run_info()) {
            (*info)["adaptive_repetitions"] = adaptive.to_json();
            dir.write_run_info(*info);
        }
    };

    auto layout = box::detect_cgroup_layout();
    const bool need_box = scenario.box.vcpu || scenario.box.memory_bytes || scenario.box.pin || scenario.box.io ||
                          scenario.auto_placement;
    if (!layout.backend && need_box) {
        outcome.stopped_because =
            "the scenario asks for a box (vcpu/memory/pin/io/placement) but this machine has no usable cgroups";
        return outcome;
    }
    std::optional<box::CpuPlacement> placement;
    box::BoxPlan measured_plan;
    box::BoxPlan backend_plan;
    backend_plan.name = "backend";
    try {
        measured_plan = box_plan(scenario.box, "measured");
        if (scenario.auto_placement) {
            auto online = box::online_cpus();
            if (!online) throw std::runtime_error("cannot read /sys/devices/system/cpu/online");
            placement = box::place_on(*online);
            measured_plan.cpuset = box::format_cpu_list(placement->measured);
            backend_plan.cpuset = box::format_cpu_list(placement->backend);
        }
    } catch (const std::exception& e) {
        outcome.stopped_because = scenario.file.string() + ": $.box: " + e.what();
        return outcome;
    }

    if (layout.backend) {
        // Groups whose owner died (a SIGKILLed run) would skew a fresh box's
        // neighbours and hide this run's own leftovers; remove them first.
        auto stale = box::cleanup_stale_boxes(layout);
        for (const auto& d : stale.removed) log("removed a stale group of a dead run: " + d);
        if (stale.killed) log("killed " + std::to_string(stale.killed) + " process(es) left in stale groups");
        for (const auto& f : stale.failed) log("warning: could not remove a stale group: " + f);
    }

    std::size_t index = 0;
    std::size_t measured_here = 0;
    const auto first_start = std::chrono::steady_clock::now();
    for (std::size_t at = 0; at < plan.size(); ++at) {
        const PlannedRep& planned = plan[at];
        if (adaptive.stopped(planned.plugin)) continue;
        ++index;
        if (interrupted.load()) {
            outcome.interrupted = true;
            break;
        }
        if (auto earlier = dir.read_rep(planned.key)) {
            auto status = earlier->if_contains("status");
            if (status && (*status == "ok" || *status == "failed")) {
                ++outcome.reps_skipped;
                log("skip " + planned.key + " (" + std::string(status->as_string()) + " in the earlier run)");
                note_decision(planned.plugin, *earlier);
                continue;
            }
        }
        // Adaptive: the plan's entries of plugins that have not stopped, an upper bound.
        const std::size_t left = adaptive.left_in(plan, at);
        std::string prefix = "[" + std::to_string(index) + "/" + (adaptive.active() ? "≤" : "") +
                             std::to_string(index - 1 + left) +
                             eta_text(std::chrono::steady_clock::now() - first_start, measured_here, left) + "] " +
                             planned.key;
        if (options.progress) options.progress(prefix + ": checking the machine");

        json::object preface;
        json::array findings;
        auto machine = detect::snapshot_machine();
        preface["machine"] = machine.to_json();
        for (auto& f : detect::check_machine(machine, scenario.plugins[planned.plugin].label + " rep " + std::to_string(planned.rep)))
            findings.push_back(f.to_json());

        std::unique_ptr<box::Box> measured;
        std::unique_ptr<sampler::Sampler> sampler;
        host::HostConfig host;
        host.run_dir = dir.root();
        host.allow_remote_targets = scenario.allow_remote;
        host.log = [&](int level, const std::string& id, const std::string& message) {
            log("[" + id + "] " + (level >= STAND_LOG_WARNING ? "warning: " : "") + message);
        };
        if (layout.backend) {
            measured = std::make_unique<box::Box>(layout, run_id_of(dir.root()) + "-" + planned.key,
                                                  measured_plan);
            auto effective = measured->read_effective();
            preface["box"] = effective.to_json();
            preface["box_plan"] = measured->plan().to_json();
            auto drift = measured->drift();
            if (!drift.empty()) {
                json::array d;
                std::string text;
                for (const auto& line : drift) {
                    d.emplace_back(line);
                    text += (text.empty() ? "" : "; ") + line;
                }
                preface["box_drift"] = std::move(d);
                findings.push_back(detect::Finding{"box-drift", planned.key, "effective box differs from the plan: " + text}.to_json());
                if (!options.allow_drift) {
                    outcome.stopped_because = "box drift before " + planned.key + ": " + text +
                                              " (fix the machine, or pass --allow-drift to measure anyway)";
                    preface["status"] = "failed";
                    preface["reason"] = outcome.stopped_because;
                    preface["findings"] = findings;
                    dir.write_rep(planned.key, preface);
                    ++outcome.reps_failed;
                    break;
                }
            }
            host.boxes["measured"] = measured->dirs();
            sampler = std::make_unique<sampler::Sampler>(sampler::make_cgroup_source(measured->paths()),
                                                         sampler::SamplerOptions{scenario.sample_interval, true});
            sampler->start();
        }
        // A fresh backend per repetition: its counters and connections start
        // at zero, and a proxy never inherits the previous one's sockets.
        std::unique_ptr<box::Box> backend_box;
        std::unique_ptr<target::BackendProcess> backend;
        if (scenario.backend) {
            try {
                target::BackendOptions bo;
                bo.log_file = dir.root() / ("backend-" + planned.key + ".log");
                bo.body_bytes = scenario.backend->body_bytes;
                bo.threads = scenario.backend->threads;
                if (layout.backend) {
                    backend_box = std::make_unique<box::Box>(layout, run_id_of(dir.root()) + "-" + planned.key + "-backend",
                                                             backend_plan);
                    bo.box = backend_box->dirs();
                }
                backend = std::make_unique<target::BackendProcess>(bo, std::chrono::seconds(10));
                preface["backend"] = backend->info();
            } catch (const std::exception& e) {
                outcome.stopped_because = "the backend did not start before " + planned.key + ": " + e.what();
                preface["status"] = "failed";
                preface["reason"] = outcome.stopped_because;
                preface["findings"] = findings;
                dir.write_rep(planned.key, preface);
                ++outcome.reps_failed;
                if (sampler) sampler->stop();
                break;
            }
        }
        if (placement) preface["placement"] = placement->to_json();
        preface["findings"] = findings;

        RepEnvironment env{scenario, planned, plugin_files[planned.plugin], dir, host, sampler.get(), interrupted,
                           [&](const std::string& step) {
                               if (options.progress) options.progress(prefix + ": " + step);
                           },
                           preface,
                           backend.get(),
                           placement ? placement->generator : box::CpuSet{}};
        auto rep = run_repetition(env);
        backend.reset();
        if (backend_box) backend_box->destroy();
        ++measured_here;
        if (sampler) {
            sampler->stop();
            std::ofstream csv(dir.samples_file(planned.key));
            sampler::write_samples_csv(csv, sampler->samples(), sampler->epoch());
        }
        if (measured) measured->destroy();
        std::string status(rep.at("status").as_string());
        if (status == "ok") ++outcome.reps_ok;
        else if (status == "interrupted") outcome.interrupted = true;
        else ++outcome.reps_failed;
        log(planned.key + ": " + status + (rep.contains("reason") ? " - " + std::string(rep.at("reason").as_string()) : ""));
        if (outcome.interrupted) break;
        note_decision(planned.plugin, rep);
    }
    return outcome;
}

}  // namespace stand::scenario
