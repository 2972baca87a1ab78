#include "report/compare_runs.hpp"

#include <doctest/doctest.h>

#include <boost/json.hpp>

using stand::report::PerRepRow;

namespace {

std::vector<PerRepRow> rows(const std::string& plugin, const std::string& metric, std::vector<double> values) {
    std::vector<PerRepRow> out;
    std::int64_t rep = 1;
    for (double v : values) out.push_back({plugin, rep++, metric, v});
    return out;
}

}  // namespace

TEST_CASE("compare: ratio of medians, Mann-Whitney p and the few-repetitions flag") {
    // Fully separated samples of 5 and 5: exact two-sided p = 2 / C(10,5) = 2/252.
    auto a = rows("nginx", "rps", {100, 101, 102, 103, 104});
    auto b = rows("nginx", "rps", {200, 202, 204, 206, 208});
    auto c = stand::report::compare_rows(a, b);
    REQUIRE(c.rows.size() == 1);
    const auto& m = c.rows[0];
    CHECK(m.a.median == 102);
    CHECK(m.b.median == 204);
    REQUIRE(m.ratio);
    CHECK(*m.ratio == doctest::Approx(2.0));
    REQUIRE(m.ratio_ci);
    CHECK(m.ratio_ci->low <= 2.0);
    CHECK(m.ratio_ci->high >= 2.0);
    CHECK(m.ratio_ci->low > 1.9);  // separated samples: the interval stays near 2
    CHECK(m.p_value == doctest::Approx(2.0 / 252.0));
    CHECK(m.method == "exact");
    CHECK_FALSE(m.few_reps);

    auto small = stand::report::compare_rows(rows("nginx", "rps", {1, 2, 3}), rows("nginx", "rps", {4, 5, 6}));
    REQUIRE(small.rows.size() == 1);
    CHECK(small.rows[0].few_reps);
    CHECK(small.rows[0].p_value == doctest::Approx(0.1));  // the smallest p with 3 against 3
    auto md = stand::report::comparison_markdown(small, "A", "B");
    CHECK(md.find("fewer than 5 repetitions") != std::string::npos);
    CHECK(md.find("| nginx | rps | 2 (1-3) [3] | 5 (4-6) [3] | 2.5 (") != std::string::npos);
}

TEST_CASE("compare: metrics of one run only are listed, a zero median has no ratio") {
    auto a = rows("p", "x", {0, 0, 0});
    auto extra = rows("p", "only_a", {1, 2});
    a.insert(a.end(), extra.begin(), extra.end());
    auto b = rows("p", "x", {1, 2, 3});
    auto extra_b = rows("q", "y", {1});
    b.insert(b.end(), extra_b.begin(), extra_b.end());
    auto c = stand::report::compare_rows(a, b);
    REQUIRE(c.rows.size() == 1);
    CHECK_FALSE(c.rows[0].ratio);
    CHECK(c.only_in_a == std::vector<std::string>{"p only_a"});
    CHECK(c.only_in_b == std::vector<std::string>{"q y"});
    auto j = stand::report::comparison_json(c, "ra", "rb");
    CHECK(j.at("rows").as_array()[0].as_object().at("ratio").is_null());
    CHECK(j.at("a") == "ra");
    CHECK(stand::report::comparison_markdown(c, "A", "B").find("n/a (median of A is 0)") != std::string::npos);
}
