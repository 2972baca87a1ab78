#include "scenario/run_info.hpp"

#include "detect/host_facts.hpp"

#include <ctime>
#include <filesystem>

namespace stand::scenario {

namespace json = boost::json;

json::object make_run_info(const Scenario& scenario, const std::vector<PlannedRep>& plan, const AdaptiveReps& adaptive) {
    json::array plan_json;
    for (const auto& p : plan)
        plan_json.push_back({{"key", p.key}, {"rep", p.rep}, {"plugin", scenario.plugins[p.plugin].label}});
    json::array plugins;
    for (const auto& p : scenario.plugins) plugins.push_back({{"id", p.id}, {"label", p.label}, {"config", p.config}});
    json::object info{{"schema_version", 1},
                      {"tables", rundir::tables_to_json(scenario.tables)},
                      {"plugins", std::move(plugins)},
                      {"scenario_file", std::filesystem::absolute(scenario.file).string()},
                      {"scenario_name", scenario.name},
                      {"started_unix", static_cast<std::int64_t>(std::time(nullptr))},
                      {"host_version", STAND_HOST_VERSION},
                      {"params", scenario.params},
                      {"checks", scenario.checks},
                      {"spread_ratios", scenario.spread_ratios},
                      {"host_facts", detect::collect_host_facts()},
                      {"plan", std::move(plan_json)}};
    if (adaptive.active()) info["adaptive_repetitions"] = adaptive.to_json();
    return info;
}

}  // namespace stand::scenario
