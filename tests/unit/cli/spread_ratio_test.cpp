// A scenario's spread_ratios: the parser's checks, the numbers the report
// computes from the repetitions' medians, and the refusal to compute them
// from partial data (a failed repetition, a missing value, a plugin or a
// planned repetition without results).
#include "report/spread_ratio.hpp"
#include "scenario/scenario_error.hpp"
#include "scenario/scenario_parser.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace stand;
namespace json = boost::json;

namespace {

const json::object kSpec{{"title", "pool"},
                         {"across", "off.cpu"},
                         {"within", json::array{"off.cpu", "on.cpu"}},
                         {"format", "%.1f"}};

json::object rep(const std::string& plugin, int r, double off, double on) {
    return {{"key", plugin + "_r" + std::to_string(r)},
            {"plugin", plugin},
            {"rep", r},
            {"status", "ok"},
            {"metrics", {{"off.cpu", off}, {"on.cpu", on}}}};
}

// Two repetitions each of a, b and c, planned as such.
json::object run_of(const std::vector<std::string>& plugins, int reps_each) {
    json::array list, plan;
    for (const auto& p : plugins) {
        list.push_back({{"id", p}, {"label", p}, {"config", json::object{}}});
        for (int r = 1; r <= reps_each; ++r) plan.push_back({{"key", p + "_r" + std::to_string(r)}, {"rep", r}, {"plugin", p}});
    }
    return {{"plugins", list}, {"plan", plan}, {"spread_ratios", json::array{kSpec}}};
}

std::vector<json::object> three_systems() {
    // medians: off a 110, b 121, c 132; on a 22, b 11, c 44
    return {rep("a", 1, 100, 20), rep("a", 2, 120, 24), rep("b", 1, 121, 11), rep("b", 2, 121, 11),
            rep("c", 1, 130, 40), rep("c", 2, 134, 48)};
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(), [&](const auto& l) { return l.find(text) != std::string::npos; });
}

std::string error_of(const std::string& spread) {
    const std::string text = R"({"schema_version": 1, "name": "t", "plugins": ["nginx"], "phases": [{"name": "p", "steps": [
        {"step": "load", "name": "off"}, {"step": "load", "name": "on"}]}], "spread_ratios": [)" + spread + "]}";
    try {
        scenario::parse_scenario_text(text, "t.json");
    } catch (const scenario::ScenarioError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("spread ratio: across = largest / smallest median, within = median over systems, and their quotient") {
    const auto s = report::compute_spread_ratio(kSpec, run_of({"a", "b", "c"}, 2), three_systems());
    REQUIRE(s.incomplete.empty());
    REQUIRE(s.systems.size() == 3);
    CHECK(s.systems[0].plugin == "a");
    CHECK(s.systems[0].across == doctest::Approx(110));
    CHECK(s.systems[0].denominator == doctest::Approx(22));
    CHECK(s.systems[0].within == doctest::Approx(5));
    CHECK(s.systems[1].within == doctest::Approx(11));
    CHECK(s.systems[2].within == doctest::Approx(3));
    CHECK(s.across_spread == doctest::Approx(1.2));
    CHECK(s.across_max_plugin == "c");
    CHECK(s.across_min_plugin == "a");
    CHECK(s.within_median == doctest::Approx(5));
    CHECK(s.within_min == doctest::Approx(3));
    CHECK(s.within_min_plugin == "c");
    CHECK(s.within_max_plugin == "b");
    REQUIRE(s.quotient.has_value());
    CHECK(*s.quotient == doctest::Approx(20));  // (5 - 1) / (1.2 - 1)

    const std::string md = report::spread_ratios_markdown(run_of({"a", "b", "c"}, 2), three_systems());
    CHECK(md.find("## pool\n") != std::string::npos);
    CHECK(md.find("| a | 110.0 | 22.0 | 5.00x |") != std::string::npos);
    CHECK(md.find("**1.20x** (c 132.0 / a 110.0), +20 %") != std::string::npos);
    CHECK(md.find("median **5.00x** (+400 %), from 3.00x (c) to 11.00x (b)") != std::string::npos);
    CHECK(md.find("is 20.0x smaller than the difference within a system (median +400 %)") != std::string::npos);

    const json::array js = report::spread_ratios_json(run_of({"a", "b", "c"}, 2), three_systems());
    REQUIRE(js.size() == 1);
    CHECK(js[0].at("computed") == true);
    CHECK(js[0].at("quotient").as_double() == doctest::Approx(20));
}

TEST_CASE("spread ratio: a between-system spread above the within ratio says larger") {
    // off: a 100, b 300 (3x); within: a 2x, b 1.5x (median 1.75x)
    const std::vector<json::object> reps{rep("a", 1, 100, 50), rep("b", 1, 300, 200)};
    const auto s = report::compute_spread_ratio(kSpec, run_of({"a", "b"}, 1), reps);
    REQUIRE(s.quotient.has_value());
    CHECK(*s.quotient == doctest::Approx(0.375));  // (1.75 - 1) / (3 - 1)
    CHECK(report::spread_ratios_markdown(run_of({"a", "b"}, 1), reps).find("is 2.7x larger than") != std::string::npos);
}

TEST_CASE("spread ratio: a quotient within 5 % of 1 says the differences are about as large") {
    // off: a 100, b 300 (3x, +200 %); within: a 3x, b 3.1x (median 3.05x, +205 %)
    const std::vector<json::object> reps{rep("a", 1, 100, 100.0 / 3), rep("b", 1, 300, 300 / 3.1)};
    const auto s = report::compute_spread_ratio(kSpec, run_of({"a", "b"}, 1), reps);
    REQUIRE(s.quotient.has_value());
    CHECK(*s.quotient == doctest::Approx(1.025));  // (3.05 - 1) / (3 - 1)
    CHECK(report::spread_ratios_markdown(run_of({"a", "b"}, 1), reps).find("is about as large as the difference within")
          != std::string::npos);
}

TEST_CASE("spread ratio: no quotient when the systems are equal or the within ratio is not above 1") {
    const auto equal = report::compute_spread_ratio(kSpec, run_of({"a", "b"}, 1), {rep("a", 1, 100, 20), rep("b", 1, 100, 50)});
    REQUIRE(equal.incomplete.empty());
    CHECK(!equal.quotient);
    CHECK(equal.no_quotient.find("same median off.cpu") != std::string::npos);
    const auto inverted = report::compute_spread_ratio(kSpec, run_of({"a", "b"}, 1), {rep("a", 1, 100, 200), rep("b", 1, 150, 200)});
    CHECK(!inverted.quotient);
    CHECK(inverted.no_quotient.find("is 0.62x, not above 1") != std::string::npos);
}

TEST_CASE("spread ratio: partial data is named, never computed") {
    const auto run = run_of({"a", "b", "c"}, 2);
    auto reps = three_systems();

    SUBCASE("a failed repetition") {
        reps[3] = {{"key", "b_r2"}, {"plugin", "b"}, {"rep", 2}, {"status", "failed"}, {"reason", "start: timeout"}};
        const auto s = report::compute_spread_ratio(kSpec, run, reps);
        CHECK(mentions(s.incomplete, "b_r2: failed (start: timeout)"));
        CHECK(s.systems.empty());
        CHECK(!s.quotient);
        const std::string md = report::spread_ratios_markdown(run, reps);
        CHECK(md.find("Not computed") != std::string::npos);
        CHECK(md.find("- b_r2: failed (start: timeout)") != std::string::npos);
        CHECK(md.find("x (") == std::string::npos);  // no ratio printed
        CHECK(report::spread_ratios_json(run, reps)[0].at("computed") == false);
    }
    SUBCASE("a repetition without one of the metrics") {
        reps[4].at("metrics").as_object().erase("on.cpu");
        const auto s = report::compute_spread_ratio(kSpec, run, reps);
        CHECK(mentions(s.incomplete, "c_r1: no value for on.cpu"));
        CHECK(s.systems.empty());
    }
    SUBCASE("a plugin of the run with no repetition, and a planned repetition that did not run") {
        reps.erase(reps.begin() + 4, reps.end());
        const auto s = report::compute_spread_ratio(kSpec, run, reps);
        CHECK(mentions(s.incomplete, "c: no finished repetition"));
        CHECK(mentions(s.incomplete, "c_r1: did not run"));
        CHECK(mentions(s.incomplete, "c_r2: did not run"));
    }
    SUBCASE("an adaptive plugin still running; the plan does not count then") {
        json::object adaptive_run = run;
        adaptive_run["adaptive_repetitions"] = {
            {"plugins", {{"a", {{"state", "narrow"}}}, {"b", {{"state", "max reached"}}}, {"c", {{"state", "running"}, {"reason", "fewer than min (3) so far"}}}}}};
        const auto s = report::compute_spread_ratio(kSpec, adaptive_run, reps);
        REQUIRE(s.incomplete.size() == 1);
        CHECK(s.incomplete[0] == "c: its adaptive repetitions had not finished (fewer than min (3) so far)");
    }
    SUBCASE("a zero denominator") {
        reps[0].at("metrics").as_object()["on.cpu"] = 0;
        reps[1].at("metrics").as_object()["on.cpu"] = 0;
        const auto s = report::compute_spread_ratio(kSpec, run, reps);
        CHECK(mentions(s.incomplete, "a: the median on.cpu is 0.0, a ratio needs it above 0"));
    }
    SUBCASE("one system") {
        const auto s = report::compute_spread_ratio(kSpec, run_of({"a"}, 2), {reps[0], reps[1]});
        CHECK(mentions(s.incomplete, "needs two systems or more"));
    }
}

TEST_CASE("spread_ratios in a scenario: metrics its steps produce, two different within metrics, a format") {
    CHECK(error_of(R"({"title": "t", "across": "off.rps", "within": ["off.rps", "on.rps"]})").empty());
    const auto s = scenario::parse_scenario_text(
        R"({"schema_version": 1, "name": "t", "plugins": ["nginx"], "phases": [{"name": "p", "steps": [
            {"step": "load", "name": "off"}, {"step": "load", "name": "on"}]}],
            "spread_ratios": [{"title": "t", "across": "off.rps", "within": ["off.rps", "on.rps"]}]})",
        "t.json");
    REQUIRE(s.spread_ratios.size() == 1);
    CHECK(s.spread_ratios[0].at("format") == "%.1f");
    CHECK(error_of(R"({"title": "t", "across": "of.rps", "within": ["off.rps", "on.rps"]})")
              .find("$.spread_ratios[0].across: expected a metric produced by a step") != std::string::npos);
    CHECK(error_of(R"({"title": "t", "across": "off.rps", "within": ["off.rps"]})")
              .find("$.spread_ratios[0].within: expected [numerator, denominator]") != std::string::npos);
    CHECK(error_of(R"({"title": "t", "across": "off.rps", "within": ["on.rps", "on.rps"]})")
              .find("$.spread_ratios[0].within: expected two different metrics") != std::string::npos);
    CHECK(error_of(R"({"title": "t", "across": "off.rps", "within": ["off.rps", "on.rps"], "format": "%d"})")
              .find("$.spread_ratios[0].format: expected one printf conversion") != std::string::npos);
    CHECK(error_of(R"({"title": "t", "across": "off.rps", "within": ["off.rps", "on.rps"], "metric": "x"})")
              .find("$.spread_ratios[0].metric: expected a key of a spread ratio (title, across, within, format)") != std::string::npos);
}
