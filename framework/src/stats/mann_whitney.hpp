// Mann–Whitney U test (Wilcoxon rank-sum), two-sided, as scipy.stats.mannwhitneyu
// computes it:
//   * ranks of the pooled sample, ties get their mid-rank;
//   * U1 = R1 - n1 (n1 + 1) / 2 for the first sample, U2 = n1 n2 - U1;
//   * exact p-value: 2 P(U >= max(U1, U2)) under H0 from the exact null
//     distribution (no tie correction), capped at 1;
//   * asymptotic p-value: z = (max(U1, U2) - n1 n2 / 2 - 0.5) / s with the
//     continuity correction (0.5, only when the numerator is > 0) and the tie
//     correction s = sqrt(n1 n2 / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1)))),
//     p = 2 (1 - Phi(z)) = erfc(z / sqrt 2), capped at 1. All values tied
//     (s = 0): p = 1.
//   * automatic: exact when there are no ties and min(n1, n2) <= 8 (scipy's
//     rule; n1 n2 must also be <= 1e6), asymptotic otherwise.
#pragma once

#include <cstddef>
#include <span>

namespace stand::stats {

enum class MwuMethod { automatic, exact, asymptotic };

struct MannWhitneyResult {
    double u1 = 0;   // U of the first sample (scipy's `statistic`)
    double u2 = 0;   // n1 n2 - u1
    double p_value = 1;
    MwuMethod method = MwuMethod::automatic;  // the one used: exact or asymptotic
    bool ties = false;
};

// Throws std::invalid_argument on an empty sample or a NaN, or if an exact
// test is asked for with n1 n2 > 1e7.
MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y,
                                 MwuMethod method = MwuMethod::automatic, bool continuity = true);

// P(U <= u) under H0 for sample sizes n1, n2 without ties (u is floored).
double mann_whitney_exact_cdf(std::size_t n1, std::size_t n2, double u);

}  // namespace stand::stats
