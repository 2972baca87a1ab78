// stats/: order statistics, the bootstrap intervals and the Mann–Whitney U test.
// Expected values come from outside this code: Python's statistics module,
// scipy's and R's published results, Mann & Whitney's 1947 table, or exact
// combinatorics spelled out in the comments.
#include "stats/bootstrap.hpp"
#include "stats/descriptive.hpp"
#include "stats/mann_whitney.hpp"
#include "stats/summary.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

namespace st = stand::stats;

namespace {

// n draws of a log-normal variable (median exp(mu)), from a fixed seed.
std::vector<double> lognormal_sample(std::mt19937_64& rng, std::size_t n, double mu) {
    std::normal_distribution<double> normal(mu, 0.5);
    std::vector<double> out(n);
    for (auto& v : out) v = std::exp(normal(rng));
    return out;
}

}  // namespace

TEST_CASE("stats: median follows Python's statistics.median, min and max") {
    // statistics.median([1, 3, 5]) == 3; statistics.median([1, 3, 5, 7]) == 4.0
    CHECK(st::median({5, 1, 3}) == 3);
    CHECK(st::median({7, 1, 5, 3}) == 4);
    // statistics.median([17.0, 29.0, 27.0]) == 27.0 (table_main: "27 (17-29)")
    CHECK(st::median({17, 29, 27}) == 27);
    // Even count: (lower + upper) / 2 in floating point, e.g. [0.1, 0.2] -> 0.15000000000000002
    CHECK(st::median({0.2, 0.1}) == (0.1 + 0.2) / 2);
    CHECK(st::median({0.2, 0.1}) != 0.15);
    CHECK(st::median({-2.5}) == -2.5);
    const std::vector<double> v{3.5, -1, 8, 8, 0};
    CHECK(st::min(v) == -1);
    CHECK(st::max(v) == 8);
    CHECK_THROWS_AS(st::median({}), std::invalid_argument);
    CHECK_THROWS_AS(st::min(std::vector<double>{}), std::invalid_argument);
    CHECK_THROWS_AS(st::median({1, NAN}), std::invalid_argument);
}

TEST_CASE("stats: type-7 quantiles match NumPy's default") {
    const std::vector<double> sorted{1, 2, 3, 4};
    // numpy.quantile([1, 2, 3, 4], [0, 0.25, 0.5, 0.9, 1]) == [1, 1.75, 2.5, 3.7, 4]
    CHECK(st::quantile_sorted(sorted, 0) == 1);
    CHECK(st::quantile_sorted(sorted, 0.25) == doctest::Approx(1.75));
    CHECK(st::quantile_sorted(sorted, 0.5) == doctest::Approx(2.5));
    CHECK(st::quantile_sorted(sorted, 0.9) == doctest::Approx(3.7));
    CHECK(st::quantile_sorted(sorted, 1) == 4);
    CHECK_THROWS_AS(st::quantile_sorted(sorted, 1.5), std::invalid_argument);
}

TEST_CASE("stats: draw_index is uniform and reproducible") {
    std::mt19937_64 a(42), b(42);
    std::vector<int> counts(7, 0);
    bool in_range = true, reproducible = true;
    for (int i = 0; i < 70000; ++i) {
        const auto k = st::draw_index(a, 7);
        in_range = in_range && k < 7;
        reproducible = reproducible && k == st::draw_index(b, 7);
        ++counts[k % 7];
    }
    CHECK(in_range);
    CHECK(reproducible);
    for (int c : counts) CHECK(std::abs(c - 10000) < 500);  // about 5 standard deviations
}

TEST_CASE("stats: summarize gives n, median, min, max and a bootstrap interval") {
    SUBCASE("n < 2: no interval") {
        const auto s = st::summarize({4.25});
        CHECK(s.n == 1);
        CHECK(s.median == 4.25);
        CHECK(s.min == 4.25);
        CHECK(s.max == 4.25);
        CHECK_FALSE(s.ci_low.has_value());
        CHECK_FALSE(s.ci_high.has_value());
    }
    SUBCASE("two values: the interval is the whole range") {
        // Resample medians of {a, b} are a (p 1/4), (a+b)/2 (1/2), b (1/4): with 10,000
        // resamples the 2.5 % and 97.5 % points are a and b.
        const auto s = st::summarize({10, 30});
        CHECK(s.median == 20);
        REQUIRE(s.ci_low.has_value());
        CHECK(*s.ci_low == 10);
        CHECK(*s.ci_high == 30);
    }
    SUBCASE("three values: P(resample median = min) = 7/27, so the interval is [min, max]") {
        const auto s = st::summarize({3, 1, 2});
        CHECK(s.median == 2);
        CHECK(*s.ci_low == 1);
        CHECK(*s.ci_high == 3);
    }
    SUBCASE("constant data: a point interval") {
        const auto s = st::summarize({7, 7, 7, 7, 7, 7});
        CHECK(*s.ci_low == 7);
        CHECK(*s.ci_high == 7);
    }
    SUBCASE("deterministic, inside the range, around the median; the seed matters") {
        std::mt19937_64 rng(1);
        const auto data = lognormal_sample(rng, 41, 2.0);
        const auto s1 = st::summarize(data), s2 = st::summarize(data);
        CHECK(*s1.ci_low == *s2.ci_low);
        CHECK(*s1.ci_high == *s2.ci_high);
        CHECK(s1.min <= *s1.ci_low);
        CHECK(*s1.ci_low < s1.median);
        CHECK(s1.median < *s1.ci_high);
        CHECK(*s1.ci_high <= s1.max);
        st::BootstrapOptions other;
        other.seed = 7;
        const auto s3 = st::summarize(data, other);
        // Another seed changes only the Monte Carlo noise. With an odd n every resample
        // median is one of the values, and so are the interval ends.
        CHECK(std::find(data.begin(), data.end(), *s3.ci_low) != data.end());
        CHECK(std::find(data.begin(), data.end(), *s3.ci_high) != data.end());
        CHECK(std::abs(*s3.ci_low - *s1.ci_low) <= 0.1 * (s1.max - s1.min));
        CHECK(std::abs(*s3.ci_high - *s1.ci_high) <= 0.1 * (s1.max - s1.min));
    }
    CHECK_THROWS_AS(st::summarize({}), std::invalid_argument);
}

TEST_CASE("stats: the bootstrap interval of the median covers the true median about 95 % of the time") {
    // 300 samples of 31 log-normal values with median e^1; percentile intervals
    // from 2,000 resamples each. Binomial sd of the rate is 1.3 %.
    std::mt19937_64 rng(2026);
    st::BootstrapOptions opts;
    opts.resamples = 2000;
    int covered = 0;
    const int trials = 300;
    for (int t = 0; t < trials; ++t) {
        const auto ci = st::bootstrap_median_ci(lognormal_sample(rng, 31, 1.0), opts);
        REQUIRE(ci.has_value());
        if (ci->low <= std::exp(1.0) && std::exp(1.0) <= ci->high) ++covered;
    }
    const double rate = covered / double(trials);
    CHECK(rate > 0.89);
    CHECK(rate < 0.995);
}

TEST_CASE("stats: ratio of medians B/A with a bootstrap interval") {
    SUBCASE("point estimate and trivial cases") {
        const auto r = st::ratio_of_medians(std::vector<double>{2, 4, 6}, std::vector<double>{10, 12, 8});
        CHECK(r.ratio == doctest::Approx(10.0 / 4.0));
        REQUIRE(r.ci.has_value());
        CHECK(r.ci->low <= r.ratio);
        CHECK(r.ratio <= r.ci->high);
        CHECK(r.resamples_used == 10000);  // no resample of {2, 4, 6} has median 0

        const auto constant = st::ratio_of_medians(std::vector<double>{5, 5, 5}, std::vector<double>{15, 15});
        CHECK(constant.ratio == 3);
        CHECK(constant.ci->low == 3);
        CHECK(constant.ci->high == 3);

        CHECK_FALSE(st::ratio_of_medians(std::vector<double>{5}, std::vector<double>{1, 2}).ci.has_value());
        CHECK_THROWS_AS(st::ratio_of_medians(std::vector<double>{0, 0, 1}, std::vector<double>{1, 2}),
                        std::invalid_argument);
    }
    SUBCASE("scaling B scales the ratio and its interval") {
        std::mt19937_64 rng(5);
        const auto a = lognormal_sample(rng, 15, 3.0);
        const auto b = lognormal_sample(rng, 15, 3.2);
        std::vector<double> b4(b);
        for (auto& v : b4) v *= 4;  // exact in binary
        const auto r = st::ratio_of_medians(a, b), r4 = st::ratio_of_medians(a, b4);
        CHECK(r4.ratio == 4 * r.ratio);
        CHECK(r4.ci->low == 4 * r.ci->low);
        CHECK(r4.ci->high == 4 * r.ci->high);
    }
    SUBCASE("coverage of the true ratio 2 is about 95 %") {
        std::mt19937_64 rng(99);
        st::BootstrapOptions opts;
        opts.resamples = 2000;
        int covered = 0;
        const int trials = 300;
        for (int t = 0; t < trials; ++t) {
            const auto a = lognormal_sample(rng, 31, 0.0);
            const auto b = lognormal_sample(rng, 31, std::log(2.0));
            const auto r = st::ratio_of_medians(a, b, opts);
            if (r.ci->low <= 2.0 && 2.0 <= r.ci->high) ++covered;
        }
        const double rate = covered / double(trials);
        CHECK(rate > 0.89);
        CHECK(rate < 0.995);
    }
}

TEST_CASE("stats: Mann-Whitney exact null distribution matches Mann & Whitney (1947), p. 52") {
    // P(U <= u) for m = 3..6, n <= m, as tabulated in the paper (3 decimals).
    struct Row {
        std::size_t n1, n2;
        std::vector<double> cdf;  // u = 0, 1, 2, ...
    };
    const std::vector<Row> table{
        {1, 3, {0.25, 0.5, 0.75}},
        {2, 3, {0.1, 0.2, 0.4, 0.6}},
        {3, 3, {0.05, 0.1, 0.2, 0.35, 0.5, 0.65}},
        {2, 4, {0.067, 0.133, 0.267, 0.4, 0.6}},
        {4, 4, {0.014, 0.029, 0.057, 0.1, 0.171, 0.243, 0.343, 0.443, 0.557}},
        {3, 5, {0.018, 0.036, 0.071, 0.125, 0.196, 0.286, 0.393, 0.5, 0.607}},
        {5, 5, {0.004, 0.008, 0.016, 0.028, 0.048, 0.075, 0.111, 0.155, 0.21, 0.274, 0.345, 0.421, 0.5, 0.579}},
        {4, 6, {0.005, 0.01, 0.019, 0.033, 0.057, 0.086, 0.129, 0.176, 0.238, 0.305, 0.381, 0.457, 0.543}},
        {6, 6, {0.001, 0.002, 0.004, 0.008, 0.013, 0.021, 0.032, 0.047, 0.066, 0.09, 0.12, 0.155, 0.197, 0.242,
                0.294, 0.350, 0.409, 0.469, 0.531}},
    };
    for (const auto& row : table)
        for (std::size_t u = 0; u < row.cdf.size(); ++u) {
            CAPTURE(row.n1);
            CAPTURE(row.n2);
            CAPTURE(u);
            CHECK(std::abs(st::mann_whitney_exact_cdf(row.n1, row.n2, double(u)) - row.cdf[u]) <= 1e-3);
            // symmetric in n1, n2
            CHECK(st::mann_whitney_exact_cdf(row.n2, row.n1, double(u)) ==
                  doctest::Approx(st::mann_whitney_exact_cdf(row.n1, row.n2, double(u))));
        }
    // Whole range: P(U <= n1 n2) = 1; P(U <= 0) = 1 / C(n1 + n2, n1) = 1 / C(16, 8) = 1/12870.
    CHECK(st::mann_whitney_exact_cdf(8, 8, 64) == doctest::Approx(1.0));
    CHECK(st::mann_whitney_exact_cdf(8, 8, 0) == doctest::Approx(1.0 / 12870));
}

TEST_CASE("stats: Mann-Whitney U matches scipy.stats.mannwhitneyu and R's wilcox.test") {
    SUBCASE("scipy docstring example (Shier 2004): exact and asymptotic") {
        const std::vector<double> males{19, 22, 16, 29, 24}, females{20, 11, 17, 12};
        const auto exact = st::mann_whitney_u(males, females);
        CHECK(exact.u1 == 17);
        CHECK(exact.u2 == 3);
        CHECK(exact.method == st::MwuMethod::exact);  // no ties, small
        CHECK(exact.p_value == doctest::Approx(0.1111111111111111).epsilon(1e-12));
        const auto asym = st::mann_whitney_u(males, females, st::MwuMethod::asymptotic);
        CHECK(asym.p_value == doctest::Approx(0.11134688653314041).epsilon(1e-12));
        const auto no_cc = st::mann_whitney_u(males, females, st::MwuMethod::asymptotic, false);
        CHECK(no_cc.p_value == doctest::Approx(0.0864107329737).epsilon(1e-11));
        // The statistic belongs to the first sample.
        CHECK(st::mann_whitney_u(females, males).u1 == 3);
    }
    SUBCASE("scipy gh-9184 against R (n1 = 10, n2 = 5)") {
        const std::vector<double> x{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
        const std::vector<double> y{1.15, 0.88, 0.90, 0.74, 1.21};
        const auto r = st::mann_whitney_u(x, y);
        CHECK(r.u1 == 35);
        CHECK(r.method == st::MwuMethod::exact);  // min(n1, n2) = 5 <= 8, no ties
        CHECK(r.p_value == doctest::Approx(0.2544122544123).epsilon(1e-11));
        CHECK(st::mann_whitney_u(x, y, st::MwuMethod::asymptotic).p_value ==
              doctest::Approx(0.244623605127).epsilon(1e-11));
        CHECK(st::mann_whitney_u(x, y, st::MwuMethod::asymptotic, false).p_value ==
              doctest::Approx(0.2206713619198).epsilon(1e-11));
    }
    SUBCASE("ties: Stata's fuel2 data (W = 50, p = 0.20096117142482586 in R and scipy without correction)") {
        const std::vector<double> untreated{20, 23, 21, 25, 18, 17, 18, 24, 20, 24, 23, 19};
        const std::vector<double> treated{24, 25, 21, 22, 23, 18, 17, 28, 24, 27, 21, 23};
        const auto r = st::mann_whitney_u(untreated, treated, st::MwuMethod::automatic, false);
        CHECK(r.ties);
        CHECK(r.method == st::MwuMethod::asymptotic);
        CHECK(r.u1 == 50);  // rank sum 128 - 12 * 13 / 2
        CHECK(r.p_value == doctest::Approx(0.20096117142482586).epsilon(1e-12));
        // With the continuity correction: z = (94 - 72 - 0.5) / s, s^2 = 144/12 * (25 - 186/552),
        // p = erfc(z / sqrt 2) = 0.21138945901258455 (evaluated with Python's math.erfc).
        const auto cc = st::mann_whitney_u(untreated, treated);
        CHECK(cc.p_value == doctest::Approx(0.21138945901258455).epsilon(1e-12));
    }
    SUBCASE("edge cases") {
        // Complete separation, 3 vs 3: only 2 of C(6,3) = 20 arrangements are as extreme.
        const auto sep = st::mann_whitney_u(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6});
        CHECK(sep.u1 == 0);
        CHECK(sep.p_value == doctest::Approx(0.1));
        // Identical samples: U at its mean, p = 1 both ways.
        const std::vector<double> same{1, 2, 3, 4};
        CHECK(st::mann_whitney_u(same, same).p_value == doctest::Approx(1.0));
        CHECK(st::mann_whitney_u(same, same, st::MwuMethod::asymptotic).p_value == doctest::Approx(1.0));
        // Everything tied: no information, p = 1.
        const auto tied = st::mann_whitney_u(std::vector<double>{5, 5, 5}, std::vector<double>{5, 5});
        CHECK(tied.u1 == 3);
        CHECK(tied.p_value == 1.0);
        CHECK_THROWS_AS(st::mann_whitney_u(std::vector<double>{}, std::vector<double>{1}), std::invalid_argument);
    }
}
