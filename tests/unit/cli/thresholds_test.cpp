// A scenario's thresholds (detect/thresholds.hpp), their parser
// (scenario/threshold_parser.hpp), the verdict line (report/verdict.hpp) and
// compare's regression gates (report/compare_gates.hpp).
#include "detect/thresholds.hpp"
#include "report/compare_gates.hpp"
#include "report/threshold_section.hpp"
#include "report/verdict.hpp"
#include "scenario/scenario_error.hpp"
#include "scenario/scenario_parser.hpp"
#include "text/junit_xml.hpp"

#include <doctest/doctest.h>

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace json = boost::json;
using stand::detect::RepValue;

namespace {

json::object threshold(const char* on, const char* bound, double limit) {
    return {{"name", "t"}, {"metric", "D.p95"}, {"bound", bound}, {"limit", limit},
            {"on", on},    {"abort_on_fail", false}, {"plugins", json::array{}}};
}

std::string parse_error(const std::string& thresholds) {
    const std::string text = R"({"schema_version": 1, "name": "t", "plugins": ["p"],
      "phases": [{"name": "m", "steps": [{"step": "run_probe", "name": "D", "job": "j"}]}],
      "thresholds": )" + thresholds + "}";
    try {
        stand::scenario::parse_scenario_text(text, "t.json");
    } catch (const stand::scenario::ScenarioError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("thresholds: the median, every repetition and the interval's far end, each against its limit") {
    const std::vector<RepValue> values{{1, 400}, {2, 520}, {3, 450}};
    auto median = stand::detect::evaluate_threshold(threshold("median", "below", 500), "nginx", values, {});
    CHECK(median.status == "passed");
    CHECK(*median.value == 450);
    CHECK(median.message == "median 450 over 3 repetitions (rep 1: 400, rep 2: 520, rep 3: 450)");
    auto every = stand::detect::evaluate_threshold(threshold("every_rep", "below", 500), "nginx", values, {"rep 4 failed"});
    CHECK(every.status == "crossed");
    CHECK(*every.value == 520);
    CHECK(every.crossed_reps == std::vector<std::int64_t>{2});
    CHECK(every.message == "1 of 3 repetitions crossed (rep 2: 520); not finished: rep 4 failed");
    // Three values cannot give a 95 % interval of the median: not evaluated, which fails too.
    auto few = stand::detect::evaluate_threshold(threshold("ci", "above", 100), "nginx", values, {});
    CHECK(few.status == "not evaluated");
    CHECK(!few.value);
    const std::vector<RepValue> six{{1, 400}, {2, 410}, {3, 420}, {4, 430}, {5, 440}, {6, 450}};
    auto ci = stand::detect::evaluate_threshold(threshold("ci", "above", 404), "nginx", six, {});
    CHECK(ci.status == "passed");  // the low end of the interval, 405, above 404
    CHECK(*ci.value == 405);
    CHECK(stand::detect::evaluate_threshold(threshold("ci", "above", 405), "nginx", six, {}).status == "crossed");
    CHECK(stand::detect::evaluate_threshold(threshold("ci", "below", 445), "nginx", six, {}).status == "crossed");
    auto none = stand::detect::evaluate_threshold(threshold("median", "below", 1), "nginx", {}, {"rep 1 failed"});
    CHECK(none.status == "not evaluated");
    CHECK(none.message == "no finished repetition of nginx measured D.p95; not finished: rep 1 failed");
    const auto back = stand::detect::ThresholdOutcome::from_json(every.to_json());
    CHECK(back.to_json() == every.to_json());
}

TEST_CASE("thresholds: crossed for good once no later repetition can bring it back") {
    const auto every = threshold("every_rep", "below", 500), median = threshold("median", "below", 500);
    CHECK_FALSE(stand::detect::crossed_for_good(every, {{1, 499}}, 5));
    CHECK(stand::detect::crossed_for_good(every, {{1, 499}, {2, 500}}, 5));  // strictly below
    CHECK_FALSE(stand::detect::crossed_for_good(median, {{1, 600}, {2, 600}}, 5));  // 2 of 5: the rest may win
    CHECK(stand::detect::crossed_for_good(median, {{1, 600}, {2, 600}, {3, 600}}, 5));
    CHECK(stand::detect::crossed_for_good(median, {{1, 600}, {2, 600}}, 3));
    CHECK_FALSE(stand::detect::crossed_for_good(threshold("ci", "below", 500), {{1, 900}, {2, 900}}, 2));
}

TEST_CASE("thresholds: the parser fills defaults and refuses what it cannot evaluate, naming the place") {
    CHECK(parse_error(R"([{"metric": "D.x", "below": 5}])") == "");
    CHECK(parse_error(R"([{"metric": "E.x", "below": 5}])") ==
          R"(t.json: $.thresholds[0].metric: expected a metric produced by a step (no step is named "E"; steps with metrics: D), got "E.x")");
    CHECK(parse_error(R"([{"metric": "D.x", "below": 5, "above": 1}])") ==
          R"(t.json: $.thresholds[0]: a threshold gives one of "below" (the value must stay under it) or "above" (the value must stay over it))");
    CHECK(parse_error(R"([{"metric": "D.x", "below": 5, "on": "mean"}])").starts_with(
        R"(t.json: $.thresholds[0].on: expected "median" (the median of the plugin's repetitions), "every_rep")"));
    CHECK(parse_error(R"([{"metric": "D.x", "below": 5, "on": "ci", "abort_on_fail": true}])") ==
          R"(t.json: $.thresholds[0].abort_on_fail: expected false with "on": "ci" (an interval is known only once every repetition ran), got true)");
    CHECK(parse_error(R"([{"metric": "D.x", "below": 5}, {"metric": "D.x", "below": 5}])") ==
          R"~(t.json: $.thresholds[1]: a second threshold named "D.x < 5 (median)": give each a different "name" (it is the JUnit test case's name))~");
    CHECK(parse_error(R"([{"metric": "D.x", "below": "5"}])") == R"(t.json: $.thresholds[0].below: expected a finite number, got "5")");
}

TEST_CASE("thresholds: JUnit has one case per threshold and plugin, failure when crossed, error when not evaluated") {
    auto a = stand::detect::evaluate_threshold(threshold("median", "below", 500), "nginx", {{1, 400}}, {});
    auto b = stand::detect::evaluate_threshold(threshold("median", "below", 500), "caddy", {{1, 600}}, {});
    auto c = stand::detect::evaluate_threshold(threshold("ci", "below", 500), "envoy", {{1, 600}}, {});
    const std::string xml = stand::report::thresholds_junit({a, b, c}, "stand run r<1>");
    CHECK(xml.find(R"(<testsuite name="stand run r&lt;1&gt;" tests="3" failures="1" skipped="0" errors="1")") != std::string::npos);
    CHECK(xml.find(R"(<testcase classname="caddy" name="t" time="0.000"><failure message="crossed: D.p95 must stay below 500 (median), median 600)") != std::string::npos);
    CHECK(xml.find(R"(<testcase classname="envoy" name="t" time="0.000"><error message="not evaluated: )") != std::string::npos);
    CHECK(stand::report::tally({a, b, c}).failing() == 2);
    CHECK(stand::report::thresholds_line({a, b, c}) ==
          "Thresholds: 1 passed, 1 crossed, 1 not evaluated (of 3): caddy: t crossed; envoy: t not evaluated");
}

TEST_CASE("verdict: clean only without findings, unfinished repetitions or an early stop, otherwise who was touched") {
    auto rep = [](const char* plugin, int n, const char* status) {
        return json::object{{"key", std::string(plugin) + "_r" + std::to_string(n)}, {"plugin", plugin}, {"rep", n}, {"status", status}};
    };
    json::object results{{"reps", json::array{rep("nginx", 1, "ok"), rep("nginx", 2, "ok"), rep("caddy", 1, "failed")}},
                         {"findings", json::array{}}, {"run", json::object{}}};
    auto v = stand::report::run_verdict(results);
    CHECK_FALSE(v.clean);
    CHECK(v.unfinished == std::vector<std::string>{"caddy_r1 failed"});
    results["reps"].as_array().pop_back();
    CHECK(stand::report::verdict_markdown(stand::report::run_verdict(results)) ==
          "**Verdict: clean.** No detector fired and all 2 repetitions finished: these numbers can be quoted, with "
          "the standing caveat at the end.\n\n");
    results["findings"] = json::array{
        {{"id", "machine-busy"}, {"scope", "nginx rep 1"}, {"message", "m"}},
        {{"id", "machine-busy"}, {"scope", "nginx rep 2"}, {"message", "m"}},
        {{"id", "generator-saturated"}, {"scope", "nginx rep 2, step load"}, {"message", "m"}},
        {{"id", "defaults-differ"}, {"scope", "after configure step c"}, {"message", "m"}}};
    v = stand::report::run_verdict(results);
    CHECK(v.touched == std::vector<std::string>{"defaults-differ: the run (after configure step c)",
                                                "generator-saturated: nginx rep 2", "machine-busy: nginx reps 1, 2"});
    CHECK(stand::report::verdict_markdown(v).starts_with("**Verdict: quote only with its findings.** defaults-differ: "));
}

TEST_CASE("compare gates: parsed, failed only when the interval lies beyond, undecided with few repetitions") {
    using stand::report::parse_gate;
    const auto g = parse_gate("D.p95_* > +5%");
    CHECK((g.pattern == "D.p95_*" && g.higher && g.relative && g.tolerance == doctest::Approx(0.05)));
    const auto fall = parse_gate("*.rps<-10%");
    CHECK((!fall.higher && fall.relative && fall.tolerance == doctest::Approx(0.1)));
    const auto abs = parse_gate("*.error_pct > 0.5");
    CHECK((!abs.relative && abs.tolerance == 0.5));
    CHECK_THROWS_WITH(parse_gate("x > -5%"), "--fail-if 'x > -5%': '>' with a change of sign '-'; a rise is '> +N', a fall '< -N'");
    CHECK_THROWS_WITH(parse_gate("x >= 5%"), doctest::Contains("expected METRIC > +N%"));
    CHECK_THROWS_WITH(parse_gate("x < -100%"), doctest::Contains("a fall of 100 % or more"));

    std::vector<stand::report::PerRepRow> base, same, slower, few;
    for (int i = 0; i < 6; ++i) {
        const double v = 100 + i;
        base.push_back({"p", i + 1, "D.p95_ms", v});
        same.push_back({"p", i + 1, "D.p95_ms", v + 0.5});
        slower.push_back({"p", i + 1, "D.p95_ms", v * 1.2});
        if (i < 3) few.push_back({"p", i + 1, "D.p95_ms", v * 1.2});
    }
    const std::vector<stand::report::Gate> gates{g};
    auto ok = stand::report::evaluate_gates(gates, base, same);
    REQUIRE(ok.size() == 1);
    CHECK(ok[0].status == "passed");
    auto bad = stand::report::evaluate_gates(gates, base, slower);
    CHECK(bad[0].status == "failed");
    CHECK(bad[0].interval->low > 1.05);
    CHECK(bad[0].message.ends_with(": wholly beyond +5 %"));
    auto undecided = stand::report::evaluate_gates(gates, base, few);
    CHECK(undecided[0].status == "undecided");
    CHECK(undecided[0].message.starts_with("cannot decide: 6 repetitions in BASE, 3 in NEW"));
    CHECK(stand::report::gates_failing(undecided));
    CHECK_THROWS_WITH(stand::report::evaluate_gates({parse_gate("E.* > +5%")}, base, same),
                      "--fail-if 'E.* > +5%': no metric measured by both runs matches E.*");
}

TEST_CASE("junit xml: escaped, counted, one element per outcome") {
    using O = stand::text::JunitCase::Outcome;
    stand::text::JunitSuite s{"s&\x01", {{"k", "v\""}}, {}};
    s.cases.push_back({"c", "ok", 1.5, O::passed, "fine", ""});
    s.cases.push_back({"c", "bad", 0, O::failed, "why <", "detail"});
    s.cases.push_back({"c", "skip", 0, O::skipped, "later", ""});
    const auto xml = stand::text::junit_xml(s);
    CHECK(xml.find("<testsuite name=\"s&amp;\xEF\xBF\xBD\" tests=\"3\" failures=\"1\" skipped=\"1\" errors=\"0\" time=\"1.500\">") !=
          std::string::npos);
    CHECK(xml.find(R"(<properties><property name="k" value="v&quot;"/></properties>)") != std::string::npos);
    CHECK(xml.find(R"(<failure message="why &lt;">detail</failure>)") != std::string::npos);
    CHECK(xml.find(R"(<skipped message="later"/>)") != std::string::npos);
}
