#include "box/box.hpp"

#include "box/apply_limits.hpp"
#include "box/cgroup_fs.hpp"
#include "box/cleanup_registry.hpp"
#include "box/create_group.hpp"
#include "box/drift.hpp"
#include "box/io_limits.hpp"
#include "box/group_name.hpp"
#include "box/kill_group.hpp"

#include <mutex>

namespace stand::box {

namespace fs = std::filesystem;

// Shared with the cleanup registry, which may destroy it from another thread.
struct Box::State : Cleanable {
    std::mutex mutex;
    std::vector<GroupPaths::Entry> groups;   // created leaves with their roots
    std::vector<GroupPaths::Entry> foreign;  // where a container engine may have made groups (v1_foreign)
    bool destroyed = false;

    void destroy() noexcept override {
        std::lock_guard lock(mutex);
        if (destroyed) return;
        destroyed = true;
        try {
            std::vector<fs::path> dirs;
            for (const auto& g : groups) dirs.push_back(g.dir);
            kill_group(dirs, std::chrono::seconds(5));
            for (const auto& g : groups) remove_group(g.root, g.dir, std::chrono::seconds(2));
            for (const auto& g : foreign) remove_group(g.root, g.dir, std::chrono::milliseconds(0));
        } catch (...) {
            // best effort: a leftover is found by the drift check or stale cleanup
        }
    }
};

Box::Box(const CgroupLayout& layout, const std::string& run_id, BoxPlan plan)
    : plan_(std::move(plan)), state_(std::make_shared<State>()) {
    validate(plan_);
    if (!valid_run_id(run_id))
        throw BoxError("run id '" + run_id + "' must be 1..200 characters of [A-Za-z0-9_.-], not starting with '.'");
    if (!layout.backend) throw BoxError("no usable cgroups: " + layout.describe());
    paths_.version = *layout.backend;
    const std::string run_group = run_group_name(run_id, current_owner());

    register_cleanable(state_);
    try {
        if (paths_.version == CgroupVersion::v2) {
            auto dir = create_group(*layout.v2_root, run_group, plan_.name, CgroupVersion::v2, false);
            state_->groups.push_back({*layout.v2_root, dir});
            for (const auto& c : layout.v2_enabled)
                for (auto known : kV2Controllers)
                    if (c == known) paths_.controllers[c] = {*layout.v2_root, dir};
            paths_.controllers["cpuacct"] = {*layout.v2_root, dir};  // cpu.stat usage exists without the cpu controller
        } else {
            for (auto c : kV1Controllers) {
                auto root = layout.root_of(c);
                if (!root) continue;
                const GroupPaths::Entry* shared = nullptr;  // co-mounted, e.g. cpu,cpuacct
                for (const auto& g : state_->groups)
                    if (g.root == *root) shared = &g;
                if (shared != nullptr) {
                    paths_.controllers[std::string(c)] = *shared;
                    continue;
                }
                auto dir = create_group(*root, run_group, plan_.name, CgroupVersion::v1, c == "cpuset");
                state_->groups.push_back({*root, dir});
                paths_.controllers[std::string(c)] = state_->groups.back();
            }
            for (const auto& root : layout.v1_foreign)
                state_->foreign.push_back({root, root / kTopGroup / run_group / plan_.name});
        }
        notes_ = apply_limits(paths_, plan_, layout);
    } catch (...) {
        state_->destroy();
        unregister_cleanable(state_.get());
        throw;
    }
}

Box::~Box() {
    state_->destroy();
    unregister_cleanable(state_.get());
}

void Box::destroy() noexcept { state_->destroy(); }

EffectiveSettings Box::read_effective() const {
    auto s = stand::box::read_effective(paths_);
    if (plan_.io) {
        s.io = read_io_limit(paths_, plan_.io->device);
        if (s.io) s.io->path = plan_.io->path;
    }
    s.notes.insert(s.notes.end(), notes_.begin(), notes_.end());
    return s;
}

std::vector<std::string> Box::drift(const BoxPlan& plan) const { return stand::box::drift(plan, read_effective()); }

boost::json::object Box::to_json() const {
    auto effective = read_effective();
    boost::json::array d;
    for (const auto& line : stand::box::drift(plan_, effective)) d.emplace_back(line);
    return {{"name", plan_.name}, {"plan", plan_.to_json()}, {"effective", effective.to_json()}, {"drift", std::move(d)}};
}

std::vector<pid_t> Box::pids() const { return group_pids(dirs()); }

bool Box::kill_all(std::chrono::milliseconds timeout) { return kill_group(dirs(), timeout); }

}  // namespace stand::box
