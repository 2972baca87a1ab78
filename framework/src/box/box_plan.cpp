#include "box/box_plan.hpp"

#include "box/cgroup_fs.hpp"
#include "box/cpu_list.hpp"
#include "box/group_name.hpp"

#include <cmath>

namespace stand::box {

std::optional<std::uint64_t> BoxPlan::quota_us() const {
    if (!vcpu) return std::nullopt;
    return static_cast<std::uint64_t>(std::llround(*vcpu * static_cast<double>(kCpuPeriodUs)));
}

boost::json::object BoxPlan::to_json() const {
    boost::json::object o;
    o["name"] = name;
    o["vcpu"] = vcpu ? boost::json::value(*vcpu) : boost::json::value(nullptr);
    o["cpu_period_us"] = kCpuPeriodUs;
    o["memory_max"] = memory_max ? boost::json::value(*memory_max) : boost::json::value(nullptr);
    o["swap_max"] = swap_max ? boost::json::value(*swap_max) : boost::json::value(nullptr);
    o["cpuset"] = cpuset ? boost::json::value(*cpuset) : boost::json::value(nullptr);
    o["io"] = io ? boost::json::value(io->to_json()) : boost::json::value(nullptr);
    return o;
}

boost::json::object IoLimit::to_json() const {
    auto opt = [](const std::optional<std::uint64_t>& v) { return v ? boost::json::value(*v) : boost::json::value(nullptr); };
    return {{"path", path},           {"device", device},           {"read_iops", opt(read_iops)},
            {"write_iops", opt(write_iops)}, {"read_bps", opt(read_bps)}, {"write_bps", opt(write_bps)}};
}

void validate(const BoxPlan& plan) {
    if (!valid_group_word(plan.name))
        throw BoxError("box name '" + plan.name + "' must be 1..64 characters of [A-Za-z0-9_-]");
    // The kernel refuses CFS quotas under 1 ms.
    if (plan.vcpu && !(std::isfinite(*plan.vcpu) && *plan.vcpu >= 0.01 && *plan.vcpu <= 4096))
        throw BoxError("box '" + plan.name + "': vcpu must be between 0.01 and 4096");
    if (plan.memory_max && *plan.memory_max < 4096)
        throw BoxError("box '" + plan.name + "': memory_max below one page");
    if (plan.io && !plan.io->read_iops && !plan.io->write_iops && !plan.io->read_bps && !plan.io->write_bps)
        throw BoxError("box '" + plan.name + "': io limit on " + plan.io->path + " without any limit");
    if (plan.cpuset) {
        auto cpus = parse_cpu_list(*plan.cpuset);
        if (!cpus || cpus->empty())
            throw BoxError("box '" + plan.name + "': cpuset '" + *plan.cpuset + "' is not a CPU list like 0-1,3");
    }
}

}  // namespace stand::box
