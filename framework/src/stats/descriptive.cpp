#include "stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace stand::stats {
namespace {

// Halfway from a to b; a + b may overflow where the halfway point does not
// (two values of 1.7976931348623157e308 have that median, not infinity).
double midway(double a, double b) {
    const double sum = a + b;
    return std::isfinite(sum) ? sum / 2 : a / 2 + b / 2;
}

}  // namespace

void require_sample(std::span<const double> values, const char* what) {
    if (values.empty()) throw std::invalid_argument(std::string(what) + ": no values");
    if (std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); }))
        throw std::invalid_argument(std::string(what) + ": NaN in the values");
}

double median_in_place(std::span<double> values) {
    const std::size_t k = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    const double upper = values[k];
    if (values.size() % 2 == 1) return upper;
    // After nth_element everything before k is <= upper; the lower middle is their maximum.
    const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k));
    return midway(lower, upper);
}

double median(std::vector<double> values) {
    require_sample(values, "median");
    return median_in_place(values);
}

double min(std::span<const double> values) {
    require_sample(values, "min");
    return *std::min_element(values.begin(), values.end());
}

double max(std::span<const double> values) {
    require_sample(values, "max");
    return *std::max_element(values.begin(), values.end());
}

double quantile_sorted(std::span<const double> sorted, double q) {
    require_sample(sorted, "quantile");
    if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("quantile: q must be in [0, 1]");
    const double h = static_cast<double>(sorted.size() - 1) * q;
    const double lo = std::floor(h);
    const auto i = static_cast<std::size_t>(lo);
    if (i + 1 >= sorted.size()) return sorted.back();
    const double a = sorted[i], b = sorted[i + 1], f = h - lo;
    if (f == 0 || a == b) return a;
    // Between values of opposite signs near the largest double, b - a overflows: weigh the two instead.
    const double step = b - a;
    return std::isfinite(step) ? a + f * step : (1 - f) * a + f * b;
}

}  // namespace stand::stats
