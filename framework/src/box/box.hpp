// A box: the cgroups one named part of a run lives in ("measured" with the
// plan's limits, "client" for the load generator with none). RAII: the
// constructor creates <root>/stand/<run-id>.<pid>.<start>/<name> in every
// hierarchy (v1: cpu, cpuacct, memory, cpuset, pids as mounted; v2: one
// directory) and writes the limits; the destructor kills what is left in it
// and removes the directories, also when the constructor failed half-way.
//
//   auto layout = stand::box::detect_cgroup_layout();
//   stand::box::Box measured(layout, run_id, {.name = "measured", .vcpu = 1.0,
//                                             .memory_max = 1 << 30, .swap_max = 0});
//   host_config.boxes["measured"] = measured.dirs();
//   if (auto d = measured.drift(); !d.empty()) stop the run, report d;
//   result["boxes"]["measured"] = measured.to_json();  // plan, effective, drift
#pragma once

#include "box/box_plan.hpp"
#include "box/cgroup_layout.hpp"
#include "box/effective_settings.hpp"
#include "box/group_paths.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace stand::box {

class Box {
public:
    // Throws BoxError: invalid plan or run id, no usable cgroups, a group
    // that cannot be created or a limit that cannot be written.
    Box(const CgroupLayout& layout, const std::string& run_id, BoxPlan plan);
    ~Box();
    Box(const Box&) = delete;
    Box& operator=(const Box&) = delete;

    const BoxPlan& plan() const noexcept { return plan_; }
    const GroupPaths& paths() const noexcept { return paths_; }
    // The directories a process joins (HostConfig::boxes[name]).
    std::vector<std::filesystem::path> dirs() const { return paths_.dirs(); }
    // What could not be applied (v1 without swap accounting).
    const std::vector<std::string>& notes() const noexcept { return notes_; }

    EffectiveSettings read_effective() const;
    std::vector<std::string> drift() const { return drift(plan_); }
    std::vector<std::string> drift(const BoxPlan& plan) const;

    // {"name", "plan", "effective", "drift": [...]}: what a result records.
    boost::json::object to_json() const;

    std::vector<pid_t> pids() const;
    // SIGKILLs every process in the box until it is empty; false on timeout.
    bool kill_all(std::chrono::milliseconds timeout = std::chrono::seconds(5));
    // kill_all() and remove the directories now (the destructor's work).
    void destroy() noexcept;

private:
    struct State;
    BoxPlan plan_;
    GroupPaths paths_;
    std::vector<std::string> notes_;
    std::shared_ptr<State> state_;
};

}  // namespace stand::box
