#include "box/drift.hpp"

#include "box/cpu_list.hpp"
#include "box/io_limits.hpp"

#include <cstdio>

namespace stand::box {
namespace {

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string bytes(std::uint64_t b) {
    if (b == kUnlimited) return "no limit";
    return std::to_string(b) + " B (" + number(static_cast<double>(b) / 1048576.0) + " MiB)";
}

std::string cpu_text(std::uint64_t quota, std::uint64_t period) {
    if (quota == kUnlimited) return "no quota";
    return number(static_cast<double>(quota) / static_cast<double>(period)) + " vCPU (quota " +
           std::to_string(quota) + "/" + std::to_string(period) + " us)";
}

void check_cpu(const BoxPlan& plan, const EffectiveSettings& e, std::vector<std::string>& out) {
    const auto quota = plan.quota_us().value_or(kUnlimited);
    const std::string planned = cpu_text(quota, BoxPlan::kCpuPeriodUs);
    if (!e.cpu_quota_us || !e.cpu_period_us) {
        if (plan.vcpu) out.push_back("cpu: planned " + planned + ", effective quota unknown (no cpu controller)");
    } else if (*e.cpu_quota_us != quota || (plan.vcpu && *e.cpu_period_us != BoxPlan::kCpuPeriodUs)) {
        out.push_back("cpu: planned " + planned + ", effective " + cpu_text(*e.cpu_quota_us, *e.cpu_period_us));
    }
    if (e.ancestor_vcpu && (!plan.vcpu || e.ancestor_vcpu->value < *plan.vcpu))
        out.push_back("cpu: ancestor " + e.ancestor_vcpu->dir + " limits the box to " +
                      number(e.ancestor_vcpu->value) + " vCPU");
}

void check_memory(const BoxPlan& plan, const EffectiveSettings& e, std::vector<std::string>& out) {
    const auto planned = plan.memory_max.value_or(kUnlimited);
    if (!e.memory_max) {
        if (plan.memory_max) out.push_back("memory: planned " + bytes(planned) + ", effective limit unknown");
    } else if (*e.memory_max != planned) {
        out.push_back("memory: planned " + bytes(planned) + ", effective " + bytes(*e.memory_max));
    }
    if (e.memory_high && *e.memory_high != kUnlimited)
        out.push_back("memory: memory.high is " + bytes(*e.memory_high) + " (reclaim throttling, not planned)");
    if (e.ancestor_memory_max && (!plan.memory_max || e.ancestor_memory_max->value < static_cast<double>(planned)))
        out.push_back("memory: ancestor " + e.ancestor_memory_max->dir + " limits the box to " +
                      bytes(static_cast<std::uint64_t>(e.ancestor_memory_max->value)));

    const auto swap = plan.swap_max.value_or(kUnlimited);
    if (!e.swap_max) {
        if (plan.swap_max) out.push_back("swap: planned " + bytes(swap) + ", not enforceable here (no swap accounting)");
    } else if (*e.swap_max != swap) {
        out.push_back("swap: planned " + bytes(swap) + ", effective " + bytes(*e.swap_max));
    }
    if (e.pids_max && *e.pids_max != kUnlimited)
        out.push_back("pids: planned no limit, effective pids.max " + std::to_string(*e.pids_max));
}

void check_cpuset(const BoxPlan& plan, const EffectiveSettings& e, std::vector<std::string>& out) {
    std::optional<CpuSet> want;
    std::string planned;
    if (plan.cpuset) {
        want = parse_cpu_list(*plan.cpuset);
        planned = want ? format_cpu_list(*want) : *plan.cpuset;
    } else {
        if (e.online_cpus) want = parse_cpu_list(*e.online_cpus);
        planned = "all CPUs (" + e.online_cpus.value_or("online CPUs unknown") + ")";
    }
    if (!e.cpus_effective) {
        if (plan.cpuset) out.push_back("cpuset: planned " + planned + ", effective CPUs unknown (no cpuset controller)");
        return;
    }
    auto have = parse_cpu_list(*e.cpus_effective);
    if (!want || !have || *want != *have)
        out.push_back("cpuset: planned " + planned + ", effective " + *e.cpus_effective);
    if (e.mems_effective && e.mems_effective->empty()) out.push_back("cpuset: no memory node allowed (cpuset.mems empty)");
}

}  // namespace

std::vector<std::string> drift(const BoxPlan& plan, const EffectiveSettings& effective) {
    std::vector<std::string> out;
    check_cpu(plan, effective, out);
    check_memory(plan, effective, out);
    check_cpuset(plan, effective, out);
    if (plan.io)
        if (auto line = io_drift(*plan.io, effective.io); !line.empty()) out.push_back(line);
    return out;
}

}  // namespace stand::box
