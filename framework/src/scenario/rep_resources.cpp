#include "scenario/rep_resources.hpp"
#include "rundir/run_files.hpp"

#include "box/block_device.hpp"
#include "detect/finding.hpp"
#include "fleetrun/remote_backend.hpp"
#include "target/backend_process.hpp"
#include "sampler/sample_csv.hpp"
#include "sampler/sample_source.hpp"

#include <fstream>

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

}  // namespace

RunBoxes plan_run_boxes(const Scenario& scenario) {
    RunBoxes boxes;
    boxes.layout = box::detect_cgroup_layout();
    const bool need_box = scenario.box.vcpu || scenario.box.memory_bytes || scenario.box.pin || scenario.box.io ||
                          scenario.auto_placement;
    if (!boxes.layout.backend && need_box)
        throw RepSetupError("the scenario asks for a box (vcpu/memory/pin/io/placement) but this machine has no usable cgroups");
    boxes.backend.name = "backend";
    try {
        boxes.measured = box_plan(scenario.box, "measured");
        if (scenario.auto_placement) {
            auto online = box::online_cpus();
            if (!online) throw std::runtime_error("cannot read /sys/devices/system/cpu/online");
            boxes.placement = box::place_on(*online);
            boxes.measured.cpuset = box::format_cpu_list(boxes.placement->measured);
            boxes.backend.cpuset = box::format_cpu_list(boxes.placement->backend);
        }
    } catch (const std::exception& e) {
        throw RepSetupError(scenario.file.string() + ": $.box: " + e.what());
    }
    return boxes;
}

RepResources::RepResources(const Scenario& scenario, const RunBoxes& boxes, const rundir::RunDirectory& dir,
                           const std::string& rep_key, bool allow_drift, json::object& preface, json::array& findings,
                           const fleet::SshSession* backend_host) {
    try {
        if (boxes.layout.backend) {
            measured_ = std::make_unique<box::Box>(boxes.layout, run_id_of(dir.root()) + "-" + rep_key, boxes.measured);
            preface[rundir::rep_key::kBox] = measured_->read_effective().to_json();
            preface[rundir::rep_key::kBoxPlan] = measured_->plan().to_json();
            if (auto drift = measured_->drift(); !drift.empty()) {
                json::array lines;
                std::string text;
                for (const auto& line : drift) {
                    lines.emplace_back(line);
                    text += (text.empty() ? "" : "; ") + line;
                }
                preface[rundir::rep_key::kBoxDrift] = std::move(lines);
                findings.push_back(
                    detect::Finding{"box-drift", rep_key, "effective box differs from the plan: " + text}.to_json());
                if (!allow_drift)
                    throw RepSetupError("box drift before " + rep_key + ": " + text +
                                        " (fix the machine, or pass --allow-drift to measure anyway)");
            }
            sampler_ = std::make_unique<sampler::Sampler>(sampler::make_cgroup_source(measured_->paths()),
                                                          sampler::SamplerOptions{scenario.sample_interval, true});
            sampler_->start();
        }
        // A fresh backend per repetition: its counters and connections start
        // at zero, and a proxy never inherits the previous one's sockets.
        if (scenario.backend && backend_host != nullptr) {
            try {
                fleetrun::RemoteBackendOptions options;
                options.log_file = dir.root() / ("backend-" + rep_key + ".log");
                options.body_bytes = scenario.backend->body_bytes;
                options.threads = scenario.backend->threads;
                backend_ = std::make_unique<fleetrun::RemoteBackend>(*backend_host, options, std::chrono::seconds(20));
                preface[rundir::rep_key::kBackend] = backend_->info();
            } catch (const std::exception& e) {
                throw RepSetupError("the backend on " + backend_host->target().url() + " did not start before " + rep_key +
                                    ": " + e.what());
            }
        } else if (scenario.backend) {
            try {
                target::BackendOptions options;
                options.log_file = dir.root() / ("backend-" + rep_key + ".log");
                options.body_bytes = scenario.backend->body_bytes;
                options.threads = scenario.backend->threads;
                if (boxes.layout.backend) {
                    backend_box_ = std::make_unique<box::Box>(boxes.layout, run_id_of(dir.root()) + "-" + rep_key + "-backend",
                                                              boxes.backend);
                    options.box = backend_box_->dirs();
                }
                backend_ = std::make_unique<target::BackendProcess>(options, std::chrono::seconds(10));
                preface[rundir::rep_key::kBackend] = backend_->info();
            } catch (const RepSetupError&) {
                throw;
            } catch (const std::exception& e) {
                throw RepSetupError("the backend did not start before " + rep_key + ": " + e.what());
            }
        }
        if (boxes.placement) preface[rundir::rep_key::kPlacement] = boxes.placement->to_json();
    } catch (...) {
        tear_down();
        throw;
    }
}

RepResources::~RepResources() { tear_down(); }

void RepResources::finish(const std::filesystem::path& samples_csv) {
    backend_.reset();
    if (backend_box_) backend_box_->destroy();
    backend_box_.reset();
    if (sampler_) {
        sampler_->stop();
        std::ofstream csv(samples_csv);
        sampler::write_samples_csv(csv, sampler_->samples(), sampler_->epoch());
    }
    tear_down();
}

void RepResources::tear_down() noexcept {
    backend_.reset();
    if (backend_box_) backend_box_->destroy();
    backend_box_.reset();
    if (sampler_) sampler_->stop();
    sampler_.reset();
    if (measured_) measured_->destroy();
    measured_.reset();
}

}  // namespace stand::scenario
