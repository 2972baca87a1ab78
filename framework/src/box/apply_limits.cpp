#include "box/apply_limits.hpp"

#include "box/cgroup_fs.hpp"
#include "box/io_limits.hpp"

namespace stand::box {
namespace {

namespace fs = std::filesystem;

const fs::path& dir_for(const GroupPaths& paths, const BoxPlan& plan, const char* controller, const char* what) {
    const auto* e = paths.find(controller);
    if (e == nullptr)
        throw BoxError("box '" + plan.name + "': " + what + " planned but the " + controller +
                       " controller is not available");
    return e->dir;
}

std::vector<std::string> apply_v1(const GroupPaths& paths, const BoxPlan& plan, const CgroupLayout& layout) {
    std::vector<std::string> notes;
    if (auto quota = plan.quota_us()) {
        const auto& dir = dir_for(paths, plan, "cpu", "a CPU quota");
        write_text(dir / "cpu.cfs_period_us", std::to_string(BoxPlan::kCpuPeriodUs));
        write_text(dir / "cpu.cfs_quota_us", std::to_string(*quota));
    }
    if (plan.memory_max) {
        const auto& dir = dir_for(paths, plan, "memory", "a memory limit");
        write_text(dir / "memory.limit_in_bytes", std::to_string(*plan.memory_max));
    }
    if (plan.swap_max) {
        const auto& dir = dir_for(paths, plan, "memory", "a swap limit");
        if (!layout.swap_accounting) {
            notes.push_back("swap_max not applied: cgroup v1 without swap accounting (memory.memsw.* missing; "
                            "boot with swapaccount=1)");
        } else if (!plan.memory_max) {
            throw BoxError("box '" + plan.name + "': on cgroup v1 swap_max needs memory_max (memsw = memory + swap)");
        } else {
            // memsw limits memory + swap together and must not be below the memory limit.
            write_text(dir / "memory.memsw.limit_in_bytes", std::to_string(*plan.memory_max + *plan.swap_max));
        }
    }
    if (plan.cpuset) write_text(dir_for(paths, plan, "cpuset", "a cpuset") / "cpuset.cpus", *plan.cpuset);
    return notes;
}

std::vector<std::string> apply_v2(const GroupPaths& paths, const BoxPlan& plan) {
    std::vector<std::string> notes;
    if (auto quota = plan.quota_us())
        write_text(dir_for(paths, plan, "cpu", "a CPU quota") / "cpu.max",
                   std::to_string(*quota) + " " + std::to_string(BoxPlan::kCpuPeriodUs));
    if (plan.memory_max)
        write_text(dir_for(paths, plan, "memory", "a memory limit") / "memory.max", std::to_string(*plan.memory_max));
    if (plan.swap_max) {
        const auto file = dir_for(paths, plan, "memory", "a swap limit") / "memory.swap.max";
        if (fs::exists(file))
            write_text(file, std::to_string(*plan.swap_max));
        else
            notes.push_back("swap_max not applied: " + file.string() + " missing (no swap accounting)");
    }
    if (plan.cpuset) write_text(dir_for(paths, plan, "cpuset", "a cpuset") / "cpuset.cpus", *plan.cpuset);
    return notes;
}

}  // namespace

std::vector<std::string> apply_limits(const GroupPaths& paths, const BoxPlan& plan, const CgroupLayout& layout) {
    auto notes = paths.version == CgroupVersion::v2 ? apply_v2(paths, plan) : apply_v1(paths, plan, layout);
    apply_io_limit(paths, plan);
    return notes;
}

}  // namespace stand::box
