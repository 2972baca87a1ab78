#include "scenario/threshold_watch.hpp"

#include "rundir/run_files.hpp"

#include <algorithm>

namespace stand::scenario {

namespace json = boost::json;

ThresholdWatch::ThresholdWatch(const Scenario& scenario, const std::vector<PlannedRep>& plan)
    : scenario_(scenario), planned_(scenario.plugins.size(), 0) {
    for (const auto& p : plan) ++planned_[p.plugin];
}

std::optional<std::string> ThresholdWatch::record(std::size_t plugin, const json::object& rep) {
    const auto* status = rundir::field(rep, rundir::rep_key::kStatus);
    const auto* metrics = rundir::field(rep, rundir::rep_key::kMetrics);
    if (!status || !status->is_string() || status->get_string() != rundir::rep_status::kOk || !metrics || !metrics->is_object()) return std::nullopt;
    const std::string& label = scenario_.plugins[plugin].label;
    const auto n = rundir::field(rep, rundir::rep_key::kRep)->to_number<std::int64_t>();
    for (std::size_t i = 0; i < scenario_.thresholds.size(); ++i) {
        const auto& t = scenario_.thresholds[i].as_object();
        const auto& only = t.at("plugins").as_array();
        if (!t.at("abort_on_fail").as_bool()) continue;
        if (!only.empty() && std::find(only.begin(), only.end(), json::value(label)) == only.end()) continue;
        const auto* v = metrics->as_object().if_contains(t.at("metric").as_string());
        if (v == nullptr || !v->is_number()) continue;
        auto& values = values_[{i, plugin}];
        values.push_back({n, v->to_number<double>()});
        if (!detect::crossed_for_good(t, values, planned_[plugin])) continue;
        const auto outcome = detect::evaluate_threshold(t, label, values, {});
        return "threshold crossed (abort_on_fail): " + detect::threshold_line(outcome) + ", after " +
               std::to_string(values.size()) + " of " + std::to_string(planned_[plugin]) + " planned repetitions";
    }
    return std::nullopt;
}

}  // namespace stand::scenario
