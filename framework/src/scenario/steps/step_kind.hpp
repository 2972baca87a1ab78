// What each step kind of a scenario is: its name, keys (with types and
// defaults), the metrics it emits, its default timeout, the plugin interface
// it drives, how its keys are read and how it runs. One descriptor per kind,
// in the files of this folder (one per kind or small family, its keys' struct
// in the family's header), all listed in registry.cpp: the parser, the
// runner, the metric declarations, `stand run --list-steps` and the check of
// scenarios/README.md come from here.
#pragma once

#include "scenario/json_reader.hpp"
#include "scenario/scenario_model.hpp"

#include <chrono>
#include <functional>
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
    // Reads a step given as a key's value (tunnel_throughput's "during").
    std::function<Step(const boost::json::value& v, const JsonPlace& place)> parse_step;
};

class RepContext;

struct StepKind {
    std::string_view name{};
    std::string_view summary{};    // one line: what the step does
    std::string_view interface{};  // the plugin interface it calls ("stand.proxy/1"); empty: the host's own work
    // The interfaces this configuration calls, where they depend on its keys
    // (a load of the users' subscription links calls stand.panel/1 too, one
    // of given URLs none); nullptr: `interface`. Checked against the plugin
    // before the run (scenario/step_interfaces.hpp).
    std::vector<std::string_view> (*interfaces_of)(const StepAction& action) = nullptr;
    std::vector<StepKey> keys{};  // besides step, name, timeout_s and plugin
    // Every metric suffix it can emit (metric "<step name>.<suffix>"); "*":
    // whatever the plugin reports (a probe's results); "<N>" in one: any
    // number there ("level<N>.rps": level1.rps, level2.rps, ...).
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
    // The default timeout of this configuration, from the one above
    // (`timeout` or the duration + 30 s); nullptr: that one.
    std::chrono::milliseconds (*timeout_of)(const StepAction& action, std::chrono::milliseconds base) = nullptr;
    // A step this one runs inside it, whose metrics it also emits; nullptr: none.
    const Step* (*nested)(const StepAction& action) = nullptr;
    // Created users: how many this configuration creates (create_users), and
    // how many it needs created before it (its highest user index + 1), so a
    // scenario asking for user 402 of 20 is refused when it is read, not
    // when that step runs. nullptr: none.
    std::uint32_t (*users_created)(const StepAction& action) = nullptr;
    std::uint32_t (*users_needed)(const StepAction& action) = nullptr;
    // Runs the step on the repetition (on the repetition's thread); throws
    // StepFailure (steps/rep_context.hpp) to end the repetition. `deadline`
    // is the step's start + its timeout.
    void (*run)(RepContext& ctx, const Step& step, std::chrono::steady_clock::time_point deadline) = nullptr;
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
