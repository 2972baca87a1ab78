#include "scenario/step_interfaces.hpp"

#include "scenario/scenario_error.hpp"
#include "scenario/steps/step_kind.hpp"

#include <algorithm>

namespace stand::scenario {
namespace {

void check_step(const Scenario& s, const Step& step, const std::map<std::string, std::vector<std::string>>& declared) {
    const StepKind* kind = find_step_kind(step.kind);
    if (kind == nullptr) return;
    const std::vector<std::string_view> calls = step_interfaces(step);
    for (const auto& [label, interfaces] : declared) {
        if (!step.plugin.empty() && step.plugin != label) continue;
        for (std::string_view needed : calls) {
            if (std::find(interfaces.begin(), interfaces.end(), needed) != interfaces.end()) continue;
            std::string has;
            for (const auto& i : interfaces) has += (has.empty() ? "" : ", ") + i;
            throw ScenarioError(s.file, step.json_path,
                                step.kind + " \"" + step.name + "\" calls " + std::string(needed) +
                                    ", which plugin " + label + " does not implement (it has " +
                                    (has.empty() ? std::string("none") : has) +
                                    (step.plugin.empty() ? "); give the step \"plugin\" to run it on another" : ")"));
        }
    }
    if (kind->nested != nullptr)
        if (const Step* inner = kind->nested(step.action)) check_step(s, *inner, declared);
}

}  // namespace

std::vector<std::string_view> step_interfaces(const Step& step) {
    const StepKind* kind = find_step_kind(step.kind);
    if (kind == nullptr) return {};
    if (kind->interfaces_of != nullptr) return kind->interfaces_of(step.action);
    if (kind->interface.empty()) return {};
    return {kind->interface};
}

void check_step_interfaces(const Scenario& scenario, const std::map<std::string, std::vector<std::string>>& declared) {
    for (const auto& phase : scenario.phases)
        for (const auto& step : phase.steps) check_step(scenario, step, declared);
}

}  // namespace stand::scenario
