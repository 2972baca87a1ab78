// What each step kind of a scenario is: its name, keys (with types and
// defaults), the metrics it emits, its default timeout, the plugin interface
// it drives, and how its keys are read. One descriptor per kind, in the files
// of this folder (one per kind or small family), all listed in registry.cpp:
// the parser, the metric declarations, `stand run --list-steps` and the check
// of scenarios/README.md come from here.
#pragma once

#include "scenario/json_reader.hpp"
#include "scenario/scenario_model.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stand::scenario {

struct StepKey {
    std::string_view name;
    std::string_view type;      // "integer 1..100000", "bool", "a step object"
    std::string_view fallback;  // the default when absent, as text; "required" for a required key
};

struct StepParseContext {
    bool allow_remote = false;  // the scenario's allow_remote: load URLs beyond loopback
};

struct StepKind {
    std::string_view name{};
    std::string_view summary{};    // one line: what the step does
    std::string_view interface{};  // the plugin interface it calls ("stand.proxy/1"); empty: the host's own work
    std::vector<StepKey> keys{};  // besides step, name, timeout_s and plugin
    // Every metric suffix it can emit (metric "<step name>.<suffix>"); "*":
    // whatever the plugin reports (a probe's results).
    std::vector<std::string_view> metrics{};
    // The default timeout of a step without a duration; with one (below):
    // the duration + 30 s.
    std::chrono::milliseconds timeout{60000};
    // Reads the kind's keys; throws ScenarioError naming the key.
    StepAction (*parse)(const ObjectReader& r, const StepParseContext& ctx) = nullptr;
    // The metrics of `metrics` this configuration emits; nullptr: all.
    bool (*emits)(const StepAction& action, std::string_view suffix) = nullptr;
    // How long it measures (the timeout must exceed it); nullptr: no duration.
    std::optional<Seconds> (*duration)(const StepAction& action) = nullptr;
};

// Every kind, in the order the docs list them.
const std::vector<const StepKind*>& step_kinds();
// nullptr when there is none of that name.
const StepKind* find_step_kind(std::string_view name);
// "install, start, ...": the kinds for messages.
std::string step_kind_names();

// The metric suffixes a parsed step emits (its kind's, filtered by emits()).
std::vector<std::string_view> step_metric_suffixes(const Step& step);

}  // namespace stand::scenario
