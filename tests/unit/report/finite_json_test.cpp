// No JSON stand writes holds a non-finite number, and a gate that cannot
// compute its interval is undecided (issue 52, item 5): the guard
// (text/finite_json.hpp), statistics that do not overflow on finite values,
// a repetition's metric beyond a double refused where it is read.
#include "report/bench_export.hpp"
#include "report/compare_gates.hpp"
#include "rundir/run_files.hpp"
#include "stats/descriptive.hpp"
#include "stats/summary.hpp"
#include "text/finite_json.hpp"
#include "text/pretty_json.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

namespace {

namespace json = boost::json;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMax = std::numeric_limits<double>::max();

}  // namespace

TEST_CASE("finite json: a non-finite number is null, and where it was is said") {
    bool non_finite = false;
    CHECK(stand::text::finite_or_null(2.5, non_finite) == json::value(2.5));
    CHECK_FALSE(non_finite);
    CHECK(stand::text::finite_or_null(kInf, non_finite).is_null());
    CHECK(non_finite);
    CHECK(stand::text::finite_or_null(std::optional<double>(std::nan(""))).is_null());
    CHECK(stand::text::finite_or_null(std::optional<double>()).is_null());

    json::value doc = json::object{{"summary", json::object{{"p", json::object{{"m", json::object{{"median", kInf}}}}}}},
                                   {"list", json::array{1, -kInf, std::nan("")}},
                                   {"ok", 1.5}};
    CHECK(stand::text::null_non_finite(doc) == std::vector<std::string>{"summary.p.m.median", "list[1]", "list[2]"});
    CHECK(json::serialize(doc) == R"({"summary":{"p":{"m":{"median":null}}},"list":[1,null,null],"ok":1.5E0})");
    CHECK(stand::text::finite_json_text(json::object{{"x", kInf}}) == R"({"x":null})");
    std::ostringstream pretty;
    stand::text::write_pretty_json(pretty, json::object{{"x", -kInf}});
    CHECK(pretty.str() == "{\n  \"x\": null\n}");
}

TEST_CASE("finite json: the median and interval of finite values are finite, at the largest double too") {
    CHECK(stand::stats::median({kMax, kMax}) == kMax);
    CHECK(stand::stats::median({-kMax, kMax}) == 0);
    CHECK(stand::stats::median({1, 2}) == 1.5);
    const auto s = stand::stats::summarize({kMax, kMax, kMax});
    CHECK(s.median == kMax);
    CHECK((s.ci_low && *s.ci_low == kMax && *s.ci_high == kMax));
    const std::vector<double> wide{-kMax, kMax};
    CHECK(stand::stats::quantile_sorted(wide, 0.5) == 0);
    CHECK(std::isfinite(stand::stats::quantile_sorted(wide, 0.25)));
    const std::vector<double> ordinary{1, 2, 4};
    CHECK(stand::stats::quantile_sorted(ordinary, 0.75) == 3);
}

TEST_CASE("finite json: a repetition's metric beyond a double breaks its schema, named") {
    json::object rep{{"key", "p_r1"}, {"plugin", "p"}, {"rep", 1}, {"status", "ok"},
                     {"metrics", json::object{{"tick.ms", kInf}, {"fine", 1}}}};
    CHECK(stand::rundir::rep_problems(rep) ==
          std::vector<std::string>{"metrics.tick.ms: expected a number within a double's range (at most about 1.8e308)"});
    rep["metrics"] = json::parse(R"({"tick.ms": 1e999})");
    CHECK(stand::rundir::rep_problems(rep).size() == 1);
}

TEST_CASE("finite json: a gate whose change is beyond a double is undecided, not passed on NaN") {
    std::vector<stand::report::PerRepRow> base, fresh;
    for (int i = 1; i <= 6; ++i) {
        base.push_back({"p", i, "m", 1e-300});
        fresh.push_back({"p", i, "m", 1e300});
    }
    const auto out = stand::report::evaluate_gates({stand::report::parse_gate("m > +5%")}, base, fresh);
    REQUIRE(out.size() == 1);
    CHECK(out[0].status == "undecided");
    CHECK(out[0].message.starts_with("cannot decide: NEW/BASE is beyond a double (the medians: BASE 1e-300, NEW 1e+300)"));
    CHECK(stand::report::gates_failing(out));
    const auto j = stand::report::gates_json(out);
    CHECK(j[0].as_object().at("estimate").is_null());
    CHECK(j[0].as_object().at("ci95_low").is_null());

    std::vector<stand::report::PerRepRow> low, high;
    for (int i = 1; i <= 6; ++i) {
        low.push_back({"p", i, "m", -kMax});
        high.push_back({"p", i, "m", kMax});
    }
    const auto diff = stand::report::evaluate_gates({stand::report::parse_gate("m > +20")}, low, high);
    CHECK(diff[0].status == "undecided");
    CHECK(diff[0].message.starts_with("cannot decide: NEW - BASE is beyond a double"));
}

TEST_CASE("finite json: the bench export leaves out a summary without numbers, saying why") {
    const json::object results{
        {"run", json::object{}},
        {"summary", json::object{{"p", json::object{{"m", json::object{{"n", 1}, {"median", nullptr}, {"min", 1}, {"max", 2}}},
                                                     {"ok", json::object{{"n", 1}, {"median", 1}, {"min", 1}, {"max", 1}}}}}}}};
    const auto out = stand::report::export_bench_json(results, stand::report::BenchFormat::bmf);
    CHECK(out.values == 1);
    CHECK(out.left_out == std::vector<std::string>{"no median, min and max as numbers in results.json (beyond a double): m"});
}
