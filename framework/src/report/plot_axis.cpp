#include "report/plot_axis.hpp"

#include "report/html_text.hpp"

#include <algorithm>
#include <cmath>

namespace stand::report {
namespace {

// Decimals a step of m * 10^e (m in 1, 2, 5) needs.
int decimals_for(double step) {
    if (!(step > 0)) return 0;
    const double e = std::floor(std::log10(step) + 1e-9);
    return e >= 0 ? 0 : static_cast<int>(-e);
}

double nice_step(double raw) {
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * mag >= raw * (1 - 1e-9)) return m * mag;
    return 10 * mag;
}

// The largest 1, 2 or 5 times a power of ten not above v (v > 0), and the
// smallest not below it.
double nice_at_most(double v) {
    const double p = std::pow(10.0, std::floor(std::log10(v) + 1e-9));
    for (double m : {5.0, 2.0})
        if (m * p <= v * (1 + 1e-9)) return m * p;
    return p;
}

double nice_at_least(double v) {
    const double p = std::pow(10.0, std::floor(std::log10(v) - 1e-9));
    for (double m : {1.0, 2.0, 5.0})
        if (m * p >= v * (1 - 1e-9)) return m * p;
    return 10 * p;
}

}  // namespace

double Axis::fraction(double v) const {
    if (log) {
        const double l = std::log10(lo);
        const double h = std::log10(hi);
        return v > 0 ? (std::log10(v) - l) / (h - l) : 0.0;
    }
    return (v - lo) / (hi - lo);
}

std::string tick_label(double value, double step) {
    return fixed(value, decimals_for(step));
}

Axis linear_axis(double lo, double hi, int target) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        lo = 0;
        hi = 1;
    }
    if (lo > hi) std::swap(lo, hi);
    if (hi == lo) {
        const double pad = lo == 0 ? 1.0 : std::abs(lo) * 0.1;
        if (lo >= 0 && lo - pad < 0) lo = 0;
        else lo -= pad;
        hi += pad;
    }
    const double step = nice_step((hi - lo) / std::max(target, 1));
    const auto first = static_cast<long long>(std::floor(lo / step + 1e-9));
    const auto last = static_cast<long long>(std::ceil(hi / step - 1e-9));
    Axis axis;
    axis.lo = static_cast<double>(first) * step;
    axis.hi = static_cast<double>(last) * step;
    for (long long i = first; i <= last; ++i) {
        const double v = static_cast<double>(i) * step;
        axis.ticks.push_back({v, tick_label(v, step)});
    }
    return axis;
}

Axis log_axis(double lo, double hi) {
    constexpr double kFloor = 1e-9;
    if (!std::isfinite(lo) || lo < kFloor) lo = kFloor;
    if (!std::isfinite(hi) || hi < lo) hi = lo;
    Axis axis;
    axis.log = true;
    axis.lo = nice_at_most(lo);
    axis.hi = nice_at_least(hi);
    if (axis.hi <= axis.lo) axis.hi = nice_at_least(axis.lo * 1.5);
    const double span = axis.hi / axis.lo;
    const auto d0 = static_cast<int>(std::floor(std::log10(axis.lo) + 1e-9));
    const auto d1 = static_cast<int>(std::ceil(std::log10(axis.hi) - 1e-9));
    for (int d = d0; d <= d1; ++d) {
        const double decade = std::pow(10.0, d);
        for (int m = 1; m <= 9; ++m) {
            const double v = m * decade;
            if (v < axis.lo * (1 - 1e-9) || v > axis.hi * (1 + 1e-9)) continue;
            const bool edge = std::abs(v / axis.lo - 1) < 1e-9 || std::abs(v / axis.hi - 1) < 1e-9;
            const bool labelled = m == 1 || edge || (span <= 100.0 * (1 + 1e-9) && (m == 2 || m == 5)) ||
                                  span <= 10.0 * (1 + 1e-9);
            axis.ticks.push_back({v, labelled ? tick_label(v, decade) : std::string()});
        }
    }
    return axis;
}

}  // namespace stand::report
