#include "scenario/adaptive_reps.hpp"
#include "rundir/run_files.hpp"
#include "text/finite_json.hpp"


namespace stand::scenario {
namespace {

namespace json = boost::json;

const char* state_name(stats::StopVerdict v) {
    switch (v) {
        case stats::StopVerdict::kNarrow: return "narrow";
        case stats::StopVerdict::kMaxReached: return "max reached";
        case stats::StopVerdict::kGoOn: break;
    }
    return "running";
}

}  // namespace

AdaptiveReps::AdaptiveReps(const Scenario& scenario) : scenario_(scenario), plugins_(scenario.plugins.size()) {}

bool AdaptiveReps::stopped(std::size_t plugin) const {
    const auto& last = plugins_.at(plugin).last;
    return last && last->verdict != stats::StopVerdict::kGoOn;
}

std::optional<stats::StopDecision> AdaptiveReps::record(std::size_t plugin, const json::object& rep) {
    if (!active()) return std::nullopt;
    PluginState& state = plugins_.at(plugin);
    ++state.ran;
    if (const auto* status = rep.if_contains(rundir::rep_key::kStatus); status && *status == "ok")
        if (const auto* metrics = rep.if_contains(rundir::rep_key::kMetrics); metrics && metrics->is_object())
            if (const auto* value = metrics->as_object().if_contains(scenario_.adaptive->metric);
                value && value->is_number() && !std::isnan(value->to_number<double>()))
                state.values.push_back(value->to_number<double>());
    if (state.ran < scenario_.adaptive->min) return std::nullopt;
    state.last = stats::decide_stop(state.values, state.ran,
                                    {scenario_.adaptive->min, scenario_.repetitions, scenario_.adaptive->ci_width_pct});
    return state.last;
}

std::size_t AdaptiveReps::left_in(const std::vector<PlannedRep>& plan, std::size_t from) const {
    std::size_t left = 0;
    for (std::size_t i = from; i < plan.size(); ++i) left += stopped(plan[i].plugin) ? 0 : 1;
    return left;
}

std::string AdaptiveReps::progress_text(std::size_t plugin, const stats::StopDecision& d) const {
    const std::string& label = scenario_.plugins.at(plugin).label;
    const std::string metric = " (" + scenario_.adaptive->metric + ")";
    if (d.verdict != stats::StopVerdict::kGoOn) return label + ": stops, " + d.text + metric;
    return label + ": " + d.text + " of at most " + std::to_string(scenario_.repetitions) + metric + ", going on";
}

json::object AdaptiveReps::to_json() const {
    json::object out;
    if (!active()) return out;
    out["min"] = scenario_.adaptive->min;
    out["max"] = scenario_.repetitions;
    out["metric"] = scenario_.adaptive->metric;
    out["ci_width_pct"] = scenario_.adaptive->ci_width_pct;
    json::object per_plugin;
    for (std::size_t i = 0; i < plugins_.size(); ++i) {
        const PluginState& s = plugins_[i];
        json::object o{{"repetitions", s.ran}, {"values", s.values.size()}};
        o["state"] = s.last ? state_name(s.last->verdict) : "running";
        o["reason"] = s.last ? s.last->text : "fewer than min (" + std::to_string(scenario_.adaptive->min) + ") so far";
        if (s.last) {
            o["median"] = text::finite_or_null(s.last->median);
            o["ci_low"] = s.last->ci ? json::value(s.last->ci->low) : json::value(nullptr);
            o["ci_high"] = s.last->ci ? json::value(s.last->ci->high) : json::value(nullptr);
            o["ci_width_pct"] = text::finite_or_null(s.last->width_pct);  // an unbounded width: null
        }
        per_plugin[scenario_.plugins[i].label] = std::move(o);
    }
    out["plugins"] = std::move(per_plugin);
    return out;
}

}  // namespace stand::scenario
