#include "stats/mann_whitney.hpp"

#include "stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace stand::stats {
namespace {

constexpr double kAutoExactMaxCells = 1e6;
constexpr double kExactMaxCells = 1e7;

// Number of arrangements giving each U = 0..n1 n2: the coefficients of the
// Gaussian binomial [n1 + n2 choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i),
// m = min, n = max. Each step leaves [n + i choose i]_q, whose coefficients are
// non-negative integers (exact in a double up to 2^53).
std::vector<double> u_counts(std::size_t n1, std::size_t n2) {
    const std::size_t m = std::min(n1, n2), n = std::max(n1, n2);
    std::vector<double> c(m * n + 1, 0.0);
    c[0] = 1.0;
    for (std::size_t i = 1; i <= m; ++i) {
        const std::size_t top = i * n;  // degree after this step
        for (std::size_t k = top; k >= n + i; --k) c[k] -= c[k - (n + i)];  // * (1 - q^(n+i))
        for (std::size_t k = i; k <= top; ++k) c[k] += c[k - i];            // / (1 - q^i)
    }
    return c;
}

struct Ranked {
    double rank_sum_x = 0;
    double tie_term = 0;  // sum over tie groups of t^3 - t
};

Ranked rank(std::span<const double> x, std::span<const double> y) {
    struct Item {
        double value;
        bool from_x;
    };
    std::vector<Item> all;
    all.reserve(x.size() + y.size());
    for (double v : x) all.push_back({v, true});
    for (double v : y) all.push_back({v, false});
    std::sort(all.begin(), all.end(), [](const Item& a, const Item& b) { return a.value < b.value; });
    Ranked r;
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j].value == all[i].value) ++j;
        const double t = static_cast<double>(j - i);
        const double mid_rank = static_cast<double>(i + 1 + j) / 2;  // ranks i+1..j
        for (std::size_t k = i; k < j; ++k)
            if (all[k].from_x) r.rank_sum_x += mid_rank;
        r.tie_term += t * t * t - t;
        i = j;
    }
    return r;
}

}  // namespace

double mann_whitney_exact_cdf(std::size_t n1, std::size_t n2, double u) {
    if (n1 == 0 || n2 == 0) throw std::invalid_argument("mann_whitney_exact_cdf: empty sample");
    if (static_cast<double>(n1) * static_cast<double>(n2) > kExactMaxCells)
        throw std::invalid_argument("mann_whitney_exact_cdf: n1 n2 too large for the exact distribution");
    if (u < 0) return 0.0;
    const auto counts = u_counts(n1, n2);
    const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
    const auto k = std::min(static_cast<std::size_t>(std::floor(u)), counts.size() - 1);
    const double below = std::accumulate(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(k) + 1, 0.0);
    return std::min(1.0, below / total);
}

MannWhitneyResult mann_whitney_u(std::span<const double> x, std::span<const double> y, MwuMethod method,
                                 bool continuity) {
    require_sample(x, "mann_whitney_u (x)");
    require_sample(y, "mann_whitney_u (y)");
    const double n1 = static_cast<double>(x.size()), n2 = static_cast<double>(y.size());
    const Ranked ranked = rank(x, y);

    MannWhitneyResult res;
    res.u1 = ranked.rank_sum_x - n1 * (n1 + 1) / 2;
    res.u2 = n1 * n2 - res.u1;
    res.ties = ranked.tie_term > 0;
    const double u = std::max(res.u1, res.u2);

    if (method == MwuMethod::automatic)
        method = (!res.ties && std::min(n1, n2) <= 8 && n1 * n2 <= kAutoExactMaxCells) ? MwuMethod::exact
                                                                                       : MwuMethod::asymptotic;
    res.method = method;

    if (method == MwuMethod::exact) {
        // P(U >= u) = P(U <= n1 n2 - u) by symmetry; u is floored like scipy does.
        res.p_value = std::min(1.0, 2 * mann_whitney_exact_cdf(x.size(), y.size(), n1 * n2 - std::floor(u)));
        return res;
    }
    const double n = n1 + n2;
    const double s = std::sqrt(n1 * n2 / 12 * ((n + 1) - ranked.tie_term / (n * (n - 1))));
    double numerator = u - n1 * n2 / 2;
    if (continuity && numerator > 0) numerator -= 0.5;
    if (!(s > 0)) {
        res.p_value = 1.0;
        return res;
    }
    res.p_value = std::min(1.0, std::erfc(numerator / s / std::sqrt(2.0)));
    return res;
}

}  // namespace stand::stats
