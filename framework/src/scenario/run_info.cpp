#include "scenario/run_info.hpp"

#include "detect/host_facts.hpp"
#include "loader/config_secrets.hpp"

#include <ctime>
#include <filesystem>

namespace stand::scenario {

namespace json = boost::json;

namespace {

json::array plugins_json(const Scenario& scenario, const std::vector<std::string>* config_schemas) {
    json::array plugins;
    for (std::size_t i = 0; i < scenario.plugins.size(); ++i) {
        const auto& p = scenario.plugins[i];
        json::object config = config_schemas ? loader::redacted_config(p.config, config_schemas->at(i)) : p.config;
        plugins.push_back({{"id", p.id}, {"label", p.label}, {"config", std::move(config)}});
    }
    return plugins;
}

}  // namespace

json::object make_run_secrets(const Scenario& scenario) {
    return {{"plugins", plugins_json(scenario, nullptr)}, {"params", scenario.params}, {"scenario_text", scenario.text}};
}

json::object make_run_info(const Scenario& scenario, const std::vector<PlannedRep>& plan, const AdaptiveReps& adaptive,
                           const std::vector<std::string>& config_schemas) {
    json::array plan_json;
    for (const auto& p : plan)
        plan_json.push_back({{"key", p.key}, {"rep", p.rep}, {"plugin", scenario.plugins[p.plugin].label}});
    json::object info{{"schema_version", 1},
                      {"tables", rundir::tables_to_json(scenario.tables)},
                      {"plugins", plugins_json(scenario, &config_schemas)},
                      {"scenario_file", std::filesystem::absolute(scenario.file).string()},
                      {"scenario_name", scenario.name},
                      {"started_unix", static_cast<std::int64_t>(std::time(nullptr))},
                      {"host_version", STAND_HOST_VERSION},
                      {"params", scenario.params},
                      {"checks", scenario.checks},
                      {"thresholds", scenario.thresholds},
                      {"spread_ratios", scenario.spread_ratios},
                      {"host_facts", detect::collect_host_facts()},
                      {"plan", std::move(plan_json)}};
    if (adaptive.active()) info["adaptive_repetitions"] = adaptive.to_json();
    return info;
}

}  // namespace stand::scenario
