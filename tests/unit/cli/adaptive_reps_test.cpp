// Adaptive repetitions: the "repetitions" object in a scenario, the stopping
// rule (stats/precision_stop.hpp) and the per-plugin bookkeeping the engine
// walks its plan with (scenario/adaptive_reps.hpp).
#include "report/adaptive_section.hpp"
#include "scenario/adaptive_reps.hpp"
#include "scenario/run_plan.hpp"
#include "scenario/scenario_parser.hpp"
#include "stats/bootstrap.hpp"
#include "stats/precision_stop.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace stand;
using namespace stand::scenario;

namespace {

// Two plugins; a probe step "tick" (metrics tick.*) and a load step only for "b".
std::string scenario_with(const std::string& repetitions, const std::string& extra = "") {
    return R"({"schema_version": 1, "name": "t", "plugins": ["a", "b"], )" + extra + R"("repetitions": )" +
           repetitions + R"(, "phases": [{"name": "p", "steps": [
             {"step": "start"}, {"step": "run_probe", "name": "tick", "job": "tick"},
             {"step": "load", "name": "only_b", "plugin": "b", "duration_s": 1}]}]})";
}

std::string error_of(const std::string& text, const ParamOverrides& params = {}) {
    try {
        check_step_plugins(parse_scenario_text(text, "t.json", params));
    } catch (const ScenarioError& e) {
        return e.what();
    }
    return "";
}

boost::json::object rep_with(const char* status, double value) {
    return {{"status", status}, {"metrics", {{"tick.slept_ms", value}}}};
}

Scenario two_plugins(std::uint32_t min, std::uint32_t max, double width_pct) {
    Scenario s;
    s.plugins = {PluginRef{"x", {}, "stable"}, PluginRef{"x", {}, "noisy"}};
    s.repetitions = max;
    s.adaptive = AdaptiveRepetitions{min, "tick.slept_ms", width_pct};
    s.order = Order{OrderMode::kShuffle, 7};
    return s;
}

}  // namespace

TEST_CASE("adaptive repetitions: the number form stays, the object form gives min, max and the rule") {
    const Scenario fixed = parse_scenario_text(scenario_with("4"), "t.json");
    CHECK(fixed.repetitions == 4);
    CHECK_FALSE(fixed.adaptive);

    const Scenario s = parse_scenario_text(
        scenario_with(R"({"min": 3, "max": 10, "until": {"metric": "tick.slept_ms", "ci_width_pct": 2.5}})"), "t.json");
    CHECK(s.repetitions == 10);
    REQUIRE(s.adaptive);
    CHECK(s.adaptive->min == 3);
    CHECK(s.adaptive->metric == "tick.slept_ms");
    CHECK(s.adaptive->ci_width_pct == 2.5);
    CHECK(make_run_plan(s).size() == 20);  // the plan goes up to max

    const Scenario same = parse_scenario_text(
        scenario_with(R"({"min": 3, "max": 3, "until": {"metric": "tick.x", "ci_width_pct": 5}})"), "t.json");
    CHECK(same.repetitions == 3);
}

TEST_CASE("adaptive repetitions: ${param} works for the number and inside the object") {
    const std::string adaptive =
        R"({"min": "${rmin}", "max": "${rmax}", "until": {"metric": "tick.ms", "ci_width_pct": "${width}"}})";
    const std::string params = R"("params": {"rmin": 2, "rmax": 6, "width": 4, "reps": 5}, )";
    const Scenario s = parse_scenario_text(scenario_with(adaptive, params), "t.json", {{"rmax", "8"}});
    REQUIRE(s.adaptive);
    CHECK(s.adaptive->min == 2);
    CHECK(s.repetitions == 8);
    CHECK(s.adaptive->ci_width_pct == 4);
    CHECK(parse_scenario_text(scenario_with("\"${reps}\"", params), "t.json").repetitions == 5);
    CHECK(error_of(scenario_with(adaptive, params), {{"rmin", "9"}}) ==
          "t.json: $.repetitions.max: expected an integer ≥ min (9), got 6");
}

TEST_CASE("adaptive repetitions: a bad object is refused naming the field") {
    auto rule = [](const std::string& min, const std::string& max, const std::string& until) {
        return scenario_with("{" + min + max + R"("until": )" + until + "}");
    };
    const std::string ok_until = R"({"metric": "tick.ms", "ci_width_pct": 5})";
    CHECK(error_of(rule(R"("min": 0, )", R"("max": 5, )", ok_until)) ==
          "t.json: $.repetitions.min: expected a positive integer up to 1000, got 0");
    CHECK(error_of(rule("", R"("max": 5, )", ok_until)) ==
          "t.json: $.repetitions.min: expected a positive integer up to 1000, got nothing");
    CHECK(error_of(rule(R"("min": 3, )", R"("max": 2, )", ok_until)) ==
          "t.json: $.repetitions.max: expected an integer ≥ min (3), got 2");
    CHECK(error_of(rule(R"("min": 3, )", R"("max": 1001, )", ok_until)) ==
          "t.json: $.repetitions.max: expected a positive integer up to 1000, got 1001");
    CHECK(error_of(rule(R"("min": 3, )", R"("max": 5, )", R"({"metric": "tick.ms", "ci_width_pct": 0})")) ==
          "t.json: $.repetitions.until.ci_width_pct: expected a positive number up to 1000, got 0");
    CHECK(error_of(rule(R"("min": 3, )", R"("max": 5, )", R"({"metric": "tick.ms"})")) ==
          "t.json: $.repetitions.until.ci_width_pct: expected a positive number up to 1000, got nothing");
    CHECK(error_of(rule(R"("min": 3, )", R"("max": 5, )", R"({"metric": "tock.ms", "ci_width_pct": 5})")) ==
          "t.json: $.repetitions.until.metric: expected a metric produced by a step (no step is named \"tock\"; "
          "steps with metrics: tick, only_b), got \"tock.ms\"");
    CHECK(error_of(rule(R"("min": 3, )", R"("max": 5, )", R"({"metric": "only_b.fps", "ci_width_pct": 5})"))
              .starts_with("t.json: $.repetitions.until.metric: expected a metric produced by a step (step only_b "
                           "produces only_b.rps, "));
    CHECK(error_of(scenario_with(R"({"min": 3, "max": 5, "until": {"metric": "tick.ms", "ci_pct": 5}})"))
              .starts_with("t.json: $.repetitions.until.ci_pct: expected a key of the stopping rule"));
    CHECK(error_of(scenario_with(R"({"min": 3, "mx": 5})"))
              .starts_with("t.json: $.repetitions.mx: expected a key of adaptive repetitions"));
    CHECK(error_of(scenario_with(R"({"min": 3, "max": 5})")) ==
          "t.json: $.repetitions.until: expected {\"metric\": ..., \"ci_width_pct\": x}, got nothing");
    CHECK(error_of(scenario_with("[3]")).starts_with("t.json: $.repetitions: expected a positive integer up to 1000 or {"));
    // A metric only some plugins produce: the plugin without it is named.
    CHECK(error_of(scenario_with(R"({"min": 3, "max": 5, "until": {"metric": "only_b.rps", "ci_width_pct": 5}})")) ==
          "t.json: $.repetitions.until.metric: no step that runs for plugin \"a\" produces \"only_b.rps\" (the "
          "step's \"plugin\" leaves it out)");
}

TEST_CASE("stopping rule: narrow from min on, max reached otherwise, with the width in the text") {
    const stats::PrecisionTarget target{3, 10, 5};
    const std::vector<double> stable{200.1, 200.4, 200.2};
    CHECK(stats::decide_stop(std::vector<double>(stable.begin(), stable.begin() + 2), 2, target).verdict ==
          stats::StopVerdict::kGoOn);  // before min, however narrow

    const auto narrow = stats::decide_stop(stable, 3, target);
    CHECK(narrow.verdict == stats::StopVerdict::kNarrow);
    REQUIRE(narrow.ci);
    const auto ci = stats::bootstrap_median_ci(stable);  // the one bootstrap, with its defaults
    REQUIRE(ci);
    CHECK(narrow.ci->low == ci->low);
    CHECK(narrow.ci->high == ci->high);
    CHECK(narrow.median == 200.2);
    CHECK(*narrow.width_pct == doctest::Approx((ci->high - ci->low) / 200.2 * 100));
    CHECK(narrow.text == "narrow: CI width 0.15 % ≤ 5 % after 3");

    const std::vector<double> noisy{100, 160, 130, 190, 110, 170, 120, 150, 140, 180};
    const auto go_on = stats::decide_stop(std::vector<double>(noisy.begin(), noisy.begin() + 5), 5, target);
    CHECK(go_on.verdict == stats::StopVerdict::kGoOn);
    CHECK(go_on.text.starts_with("CI width "));
    CHECK(go_on.text.ends_with(" % > 5 % after 5"));
    const auto at_max = stats::decide_stop(noisy, 10, target);
    CHECK(at_max.verdict == stats::StopVerdict::kMaxReached);
    CHECK(at_max.text.starts_with("max reached: CI width "));
    CHECK(at_max.text.ends_with(" % > 5 % after 10"));
    CHECK(*at_max.width_pct > 5);

    // Narrow at max is "narrow", not "max reached".
    CHECK(stats::decide_stop(stable, 10, target).verdict == stats::StopVerdict::kNarrow);
}

TEST_CASE("stopping rule: failed repetitions count against max, a median of 0 needs a zero width") {
    const stats::PrecisionTarget target{2, 4, 5};
    const std::vector<double> one{50};
    CHECK(stats::decide_stop(one, 3, target).text == "fewer than 2 values, no interval after 3 (2 without a value)");
    const auto at_max = stats::decide_stop(one, 4, target);
    CHECK(at_max.verdict == stats::StopVerdict::kMaxReached);
    CHECK(at_max.text == "max reached: fewer than 2 values, no interval after 4 (3 without a value)");
    CHECK(stats::decide_stop({}, 4, target).text ==
          "max reached: fewer than 2 values, no interval after 4 (4 without a value)");

    CHECK(stats::decide_stop(std::vector<double>{0, 0, 0}, 3, target).text == "narrow: CI width 0 % ≤ 5 % after 3");
    const auto spread = stats::decide_stop(std::vector<double>{-1, 0, 0, 1}, 4, target);
    CHECK(spread.verdict == stats::StopVerdict::kMaxReached);
    CHECK(spread.text == "max reached: CI width unbounded (median 0) > 5 % after 4");
}

TEST_CASE("adaptive repetitions: a stopped plugin leaves the plan, the others keep its order") {
    const Scenario s = two_plugins(3, 6, 5);
    const auto plan = make_run_plan(s);
    REQUIRE(plan.size() == 12);
    AdaptiveReps adaptive(s);
    const std::vector<double> noisy{100, 160, 130, 190, 110, 170};
    std::vector<std::string> ran;
    for (std::size_t at = 0; at < plan.size(); ++at) {
        const auto& p = plan[at];
        if (adaptive.stopped(p.plugin)) continue;
        CHECK(adaptive.left_in(plan, at) <= plan.size() - at);
        ran.push_back(p.key);
        const double value = p.plugin == 0 ? 200.0 + 0.1 * p.rep : noisy[p.rep - 1];
        // The stable plugin's first two repetitions failed: they count, without a value.
        const auto decision = adaptive.record(p.plugin, rep_with(p.plugin == 0 && p.rep <= 2 ? "failed" : "ok", value));
        CHECK(decision.has_value() == (p.rep >= 3));
    }
    // Exactly the plan's entries minus the stable plugin's after it stopped, in plan order.
    std::vector<std::string> expected;
    for (const auto& p : plan) {
        if (p.plugin == 0 && p.rep > 4) continue;
        expected.push_back(p.key);
    }
    CHECK(ran == expected);
    CHECK(adaptive.stopped(0));
    CHECK(adaptive.stopped(1));
    CHECK(adaptive.left_in(plan, 0) == 0);

    const auto json = adaptive.to_json();
    CHECK(json.at("min") == 3);
    CHECK(json.at("max") == 6);
    CHECK(json.at("metric") == "tick.slept_ms");
    const auto& stable = json.at("plugins").at("stable").as_object();
    CHECK(stable.at("repetitions") == 4);
    CHECK(stable.at("values") == 2);
    CHECK(stable.at("state") == "narrow");
    CHECK(std::string(stable.at("reason").as_string()).starts_with("narrow: CI width "));
    CHECK(std::string(stable.at("reason").as_string()).ends_with(" % ≤ 5 % after 4 (2 without a value)"));
    const auto& noisy_json = json.at("plugins").at("noisy").as_object();
    CHECK(noisy_json.at("repetitions") == 6);
    CHECK(noisy_json.at("state") == "max reached");
    CHECK(std::string(noisy_json.at("reason").as_string()).starts_with("max reached: CI width "));
    CHECK(noisy_json.at("ci_width_pct").as_double() > 5);
}

TEST_CASE("adaptive repetitions: the progress text, and nothing when the count is fixed") {
    const Scenario s = two_plugins(2, 5, 5);
    AdaptiveReps adaptive(s);
    CHECK_FALSE(adaptive.record(1, rep_with("ok", 100)));
    const auto d = adaptive.record(1, rep_with("ok", 180));
    REQUIRE(d);
    CHECK(adaptive.progress_text(1, *d).starts_with("noisy: CI width "));
    CHECK(adaptive.progress_text(1, *d).ends_with(" % > 5 % after 2 of at most 5 (tick.slept_ms), going on"));
    CHECK(adaptive.to_json().at("plugins").at("stable").at("reason") == "fewer than min (2) so far");
    adaptive.record(0, rep_with("ok", 7));
    const auto stop = adaptive.record(0, rep_with("ok", 7));
    REQUIRE(stop);
    CHECK(adaptive.progress_text(0, *stop) == "stable: stops, narrow: CI width 0 % ≤ 5 % after 2 (tick.slept_ms)");

    Scenario fixed = two_plugins(2, 5, 5);
    fixed.adaptive.reset();
    AdaptiveReps none(fixed);
    CHECK_FALSE(none.active());
    for (int i = 0; i < 6; ++i) CHECK_FALSE(none.record(0, rep_with("ok", 1)));
    CHECK_FALSE(none.stopped(0));
    CHECK(none.to_json().empty());
}

TEST_CASE("adaptive repetitions: summary.md says per plugin how many ran and why it stopped") {
    const Scenario s = two_plugins(2, 3, 5);
    AdaptiveReps adaptive(s);
    for (double v : {7.0, 7.0}) adaptive.record(0, rep_with("ok", v));
    for (double v : {100.0, 180.0, 120.0}) adaptive.record(1, rep_with("ok", v));
    const std::string md = report::adaptive_markdown({{"adaptive_repetitions", adaptive.to_json()}});
    CHECK(md.starts_with("## Adaptive repetitions\n\nEach plugin ran from 2 to at most 3 repetitions, until the 95 % "
                         "bootstrap interval of the median of tick.slept_ms was at most 5 % of the median wide.\n"));
    CHECK(md.find("| stable | 2 | narrow: CI width 0 % ≤ 5 % after 2 |\n") != std::string::npos);
    CHECK(md.find("| noisy | 3 | max reached: CI width ") != std::string::npos);
    CHECK(md.find(" % > 5 % after 3 |\n") != std::string::npos);
    CHECK(report::adaptive_markdown({{"plan", boost::json::array{}}}).empty());

    const std::string html = report::adaptive_html({{"adaptive_repetitions", adaptive.to_json()}});
    CHECK(html.starts_with("<h3>Adaptive repetitions</h3><p class=\"note\">Each plugin ran from 2 to at most 3"));
    CHECK(html.find("<tr><td>stable</td><td class=\"num\">2</td><td>narrow: CI width 0 % ≤ 5 % after 2</td></tr>") !=
          std::string::npos);
    CHECK(html.ends_with("</tbody></table>"));
    CHECK(report::adaptive_html({}).empty());
}
