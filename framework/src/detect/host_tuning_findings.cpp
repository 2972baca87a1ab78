#include "detect/host_tuning_findings.hpp"

#include "detect/host_tuning.hpp"

#include <boost/json.hpp>

#include <string_view>

namespace stand::detect {
namespace {

namespace json = boost::json;
using namespace host_tuning_key;

std::string fact_of(const json::object& facts, const char* key) {
    const auto* v = facts.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

bool visible(const std::string& fact) { return !fact.empty() && !fact.starts_with(kNotVisible); }

// Whether any governor named in "performance" / "performance on cpu0; powersave on cpu1" is another one.
bool governor_other_than_performance(std::string_view fact) {
    while (!fact.empty()) {
        const auto end = fact.find("; ");
        std::string_view entry = fact.substr(0, end);
        if (const auto on = entry.find(" on cpu"); on != std::string_view::npos) entry = entry.substr(0, on);
        if (entry != "performance" && entry != "not readable") return true;
        if (end == std::string_view::npos) break;
        fact.remove_prefix(end + 2);
    }
    return false;
}

std::string boost_fix(const std::string& fact) {
    if (fact.find("intel_pstate/no_turbo") != std::string::npos)
        return "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo";
    if (fact.find("cpu*/cpufreq/boost") != std::string::npos)
        return "echo 0 | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/boost";
    return "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost";
}

}  // namespace

std::vector<Finding> check_host_tuning(const json::object& facts, const std::string& scope) {
    std::vector<Finding> out;
    if (const std::string g = fact_of(facts, kCpuGovernor); visible(g) && governor_other_than_performance(g))
        out.push_back({"cpu-governor", scope,
                       (g.find(" on cpu") == std::string::npos ? "CPU frequency governor " + g + ", not performance"
                                                               : "CPU frequency governors " + g +
                                                                     ", not performance on every CPU") +
                           ": the clock follows the load, so the same work takes a different time "
                           "as the CPUs ramp up and down (google/benchmark, LLVM's benchmarking tips); fix: sudo cpupower "
                           "frequency-set -g performance, or echo performance | sudo tee "
                           "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor"});
    if (const std::string b = fact_of(facts, kCpuBoost); b.starts_with("on") || b.starts_with("partly on"))
        out.push_back({"cpu-boost", scope,
                       "CPU boost " + b +
                           ": the clock rises above base while power and thermal headroom last, so repetitions run "
                           "at different speeds even under the performance governor (google/benchmark, LLVM's "
                           "benchmarking tips); fix: " + boost_fix(b)});
    return out;
}

std::vector<Finding> check_run_host_tuning(const json::object& run) {
    if (const auto* hosts = run.if_contains("fleet_hosts"); hosts && hosts->is_array()) {
        std::vector<Finding> out;
        for (const auto& h : hosts->get_array()) {
            const auto* host = h.if_object();
            const auto* facts = host != nullptr ? host->if_contains("host_facts") : nullptr;
            const auto* name = host != nullptr ? host->if_contains("name") : nullptr;
            if (facts == nullptr || !facts->is_object() || name == nullptr || !name->is_string()) continue;
            for (auto& f : check_host_tuning(facts->get_object(), "host " + std::string(name->get_string())))
                out.push_back(std::move(f));
        }
        return out;
    }
    const auto* facts = run.if_contains("host_facts");
    return facts != nullptr && facts->is_object() ? check_host_tuning(facts->get_object(), "this machine")
                                                  : std::vector<Finding>{};
}

}  // namespace stand::detect
