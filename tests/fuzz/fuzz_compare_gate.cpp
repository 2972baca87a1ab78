// `stand compare --fail-if GATE`: the gate a user types (report/
// compare_gates.hpp), judged against runs whose medians are ordinary, tiny,
// huge or at the ends of a double, and written as Markdown, JSON and JUnit.
// A gate is refused with std::invalid_argument naming it; anything else
// escaping is a finding, as is JSON holding a non-finite number or JUnit
// holding bytes that are not UTF-8.
// Input: the first byte picks the runs' values; the rest is the gate.
#include "fuzz_input.hpp"
#include "report/compare_gates.hpp"
#include "text/finite_json.hpp"
#include "text/utf8.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using stand::fuzz::check;
namespace report = stand::report;

namespace {

// Medians of BASE and NEW: ordinary, a change beyond a double, zero, the ends.
constexpr std::array<std::array<double, 2>, 6> kRuns{{{100, 120},
                                                     {1e-300, 1e300},
                                                     {0, 5},
                                                     {-std::numeric_limits<double>::max(), std::numeric_limits<double>::max()},
                                                     {std::numeric_limits<double>::denorm_min(), 1},
                                                     {std::numeric_limits<double>::max(), std::numeric_limits<double>::max()}}};

// Six repetitions about `value`, each finite: stand refuses a repetition
// metric beyond a double when it reads one, so no gate sees an infinity.
std::vector<report::PerRepRow> rows(double value, const std::string& metric) {
    std::vector<report::PerRepRow> out;
    for (int i = 1; i <= 6; ++i) {
        const double spread = value * (1 + (i - 3) * 1e-3);
        out.push_back({"p", i, metric, std::isfinite(spread) ? spread : value});
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    stand::fuzz::FuzzInput in(data, size);
    const auto& run = kRuns[in.byte() % kRuns.size()];
    const std::string text(in.rest());
    report::Gate gate;
    try {
        gate = report::parse_gate(text);
    } catch (const std::invalid_argument& e) {
        check(std::string_view(e.what()).starts_with("--fail-if '"), "a refusal names the gate");
        return 0;
    }
    check(!gate.pattern.empty(), "a gate has a pattern");
    check(std::isfinite(gate.tolerance) && gate.tolerance >= 0, "a tolerance is a finite, non-negative number");
    std::vector<report::GateOutcome> outcomes;
    try {
        outcomes = report::evaluate_gates({gate}, rows(run[0], gate.pattern), rows(run[1], gate.pattern));
    } catch (const std::invalid_argument& e) {
        check(std::string_view(e.what()).starts_with("--fail-if '"), "a gate matching nothing is named");
        return 0;
    }
    for (const auto& o : outcomes) check(o.status == "passed" || o.status == "failed" || o.status == "undecided", "a status");
    (void)report::gates_markdown(outcomes);
    boost::json::value json = report::gates_json(outcomes);
    check(stand::text::null_non_finite(json).empty(), "gates JSON holds finite numbers only");
    check(stand::text::is_valid_utf8(report::gates_junit(outcomes, "stand compare a b")), "JUnit is UTF-8");
    return 0;
}
