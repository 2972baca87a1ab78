// Adaptive repetitions (scenarios/README.md): per plugin, the repetitions
// run so far, the values of the rule's metric, and whether and why the
// plugin stopped. The engine walks the usual plan (run_plan.hpp) up to the
// max and skips the entries of a plugin that stopped, so the order of the
// others stays what the plan says; fed in plan order, also from the
// repetitions a resumed run finds on disk, it decides the same way again.
#pragma once

#include "scenario/run_plan.hpp"
#include "scenario/scenario_model.hpp"
#include "stats/precision_stop.hpp"

#include <boost/json.hpp>

#include <optional>
#include <vector>

namespace stand::scenario {

class AdaptiveReps {
public:
    explicit AdaptiveReps(const Scenario& scenario);

    bool active() const noexcept { return scenario_.adaptive.has_value(); }
    bool stopped(std::size_t plugin) const;

    // A finished repetition of `plugin` (its JSON: "status", "metrics"). A
    // failed one counts against max without a value. From min on, returns
    // the decision (also kept for to_json); before min or when inactive, none.
    std::optional<stats::StopDecision> record(std::size_t plugin, const boost::json::object& rep);

    // Entries of `plan` from `from` on whose plugin has not stopped.
    std::size_t left_in(const std::vector<PlannedRep>& plan, std::size_t from) const;

    // "alpha: CI width 7.1 % > 5 % after 3 of at most 10 (tick.slept_ms), going on",
    // "alpha: stops, narrow: CI width 3.2 % ≤ 5 % after 4 (tick.slept_ms)".
    std::string progress_text(std::size_t plugin, const stats::StopDecision& decision) const;

    // run.json's "adaptive_repetitions": the rule and, per plugin label,
    // {"repetitions", "values", "state": "running" | "narrow" | "max reached",
    //  "reason", "median", "ci_low", "ci_high", "ci_width_pct"}.
    boost::json::object to_json() const;

private:
    struct PluginState {
        std::uint32_t ran = 0;
        std::vector<double> values;
        std::optional<stats::StopDecision> last;
    };
    const Scenario& scenario_;
    std::vector<PluginState> plugins_;
};

}  // namespace stand::scenario
