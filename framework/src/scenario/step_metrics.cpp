#include "scenario/step_metrics.hpp"

#include "scenario/steps/step_kind.hpp"

#include <boost/json.hpp>

namespace stand::scenario {
namespace {

// A declared suffix matches itself, "*" anything, and "level<N>.rps" any
// "level" + digits + ".rps" (a capacity search's levels).
bool suffix_matches(std::string_view declared, std::string_view suffix) {
    if (declared == "*" || declared == suffix) return true;
    const auto n = declared.find("<N>");
    if (n == std::string_view::npos) return false;
    const std::string_view head = declared.substr(0, n), tail = declared.substr(n + 3);
    if (suffix.size() <= head.size() + tail.size() || !suffix.starts_with(head) || !suffix.ends_with(tail)) return false;
    const std::string_view digits = suffix.substr(head.size(), suffix.size() - head.size() - tail.size());
    return digits.find_first_not_of("0123456789") == std::string_view::npos;
}

const Step* nested_step(const Step& step) {
    const StepKind* kind = find_step_kind(step.kind);
    return kind != nullptr && kind->nested != nullptr ? kind->nested(step.action) : nullptr;
}

}  // namespace

std::vector<std::string> metrics_produced(const Step& step) {
    std::vector<std::string> out;
    for (std::string_view suffix : step_metric_suffixes(step)) out.push_back(step.name + "." + std::string(suffix));
    if (const Step* inner = nested_step(step))
        for (auto& m : metrics_produced(*inner)) out.push_back(std::move(m));
    return out;
}

bool produces_metric(const Step& step, std::string_view metric) {
    if (const Step* inner = nested_step(step); inner && produces_metric(*inner, metric)) return true;
    if (metric.size() <= step.name.size() + 1 || !metric.starts_with(step.name) || metric[step.name.size()] != '.')
        return false;
    const std::string_view suffix = metric.substr(step.name.size() + 1);
    for (std::string_view s : step_metric_suffixes(step))
        if (suffix_matches(s, suffix)) return true;
    return false;
}

std::vector<std::string> undeclared_metrics(const Step& step, const boost::json::object& metrics,
                                            const std::set<std::string>& before) {
    std::vector<std::string> out;
    for (const auto& [key, value] : metrics) {
        (void)value;
        if (!before.contains(std::string(key)) && !produces_metric(step, key)) out.emplace_back(key);
    }
    return out;
}

bool phases_produce_metric(const std::vector<Phase>& phases, std::string_view metric) {
    for (const Phase& phase : phases)
        for (const Step& step : phase.steps)
            if (produces_metric(step, metric)) return true;
    return false;
}

std::string unknown_metric_hint(std::string_view metric, const std::vector<Phase>& phases) {
    auto join = [](const std::vector<std::string>& items) {
        std::string out;
        for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
        return out;
    };
    const std::string_view step_name = metric.substr(0, metric.find('.'));
    std::vector<std::string> with_metrics;
    for (const Phase& phase : phases)
        for (const Step& step : phase.steps) {
            const auto metrics = metrics_produced(step);
            if (step.name == step_name)
                return metrics.empty() ? "step " + step.name + " produces no metrics"
                                       : "step " + step.name + " produces " + join(metrics);
            if (!metrics.empty()) with_metrics.push_back(step.name);
        }
    if (with_metrics.empty()) return "no step produces metrics";
    return "no step is named " + boost::json::serialize(boost::json::string_view(step_name.data(), step_name.size())) +
           "; steps with metrics: " + join(with_metrics);
}

std::string expect_produced_metric(const boost::json::value& v, const JsonPlace& place, const std::vector<Phase>& phases) {
    std::string metric = expect_string(v, place, true);
    if (!phases_produce_metric(phases, metric))
        place.fail("a metric produced by a step (" + unknown_metric_hint(metric, phases) + ")", &v);
    return metric;
}

}  // namespace stand::scenario
