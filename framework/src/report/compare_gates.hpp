// Regression gates of `stand compare BASE NEW --fail-if 'METRIC > +5%'`:
// a gate fails only when the bootstrap 95 % interval of the change (the
// ratio NEW/BASE of the medians, or their difference for an absolute
// tolerance) lies wholly beyond the tolerance; it is undecided, and says
// why, with fewer than stats::kMedianIntervalMinN repetitions on a side, a
// base median of 0 for a ratio, or a change (or its interval) beyond a double
// (1e300 / 1e-300). A failed or undecided gate fails the
// command (kExitThresholds), as a scenario's thresholds do.
#pragma once

#include "report/per_rep.hpp"
#include "stats/bootstrap.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace stand::report {

struct Gate {
    std::string text;     // as given: "D.sub_p95_ms > +5%"
    std::string pattern;  // metric names, '*' and '?' as in a shell
    bool higher = true;   // '>': fails when NEW is higher; '<': when lower
    bool relative = true; // "5%": the ratio; "20": the difference, in the metric's unit
    double tolerance = 0; // 0.05 for 5 %, 20 for 20
};

// Throws std::invalid_argument saying what is wrong and what is expected,
// or naming a change out of a double's range.
Gate parse_gate(const std::string& text);

struct GateOutcome {
    std::string gate, plugin, metric;
    std::string status;  // "passed", "failed" or "undecided"
    std::size_t n_base = 0, n_new = 0;
    std::optional<double> estimate;          // the ratio or the difference of the medians
    std::optional<stats::Interval> interval;  // its bootstrap 95 % interval
    std::string message;
};

// Every gate against every (plugin, metric) both runs measured whose metric
// its pattern matches; throws std::invalid_argument naming a gate that
// matches none.
std::vector<GateOutcome> evaluate_gates(const std::vector<Gate>& gates, const std::vector<PerRepRow>& base,
                                        const std::vector<PerRepRow>& fresh);

std::string gates_markdown(const std::vector<GateOutcome>& outcomes);
boost::json::array gates_json(const std::vector<GateOutcome>& outcomes);
std::string gates_junit(const std::vector<GateOutcome>& outcomes, const std::string& suite);
bool gates_failing(const std::vector<GateOutcome>& outcomes);

}  // namespace stand::report
