#include "stats/precision_stop.hpp"

#include "stats/descriptive.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace stand::stats {
namespace {

// "3.2", "11", "0.532": three significant digits, no exponent below 1000.
std::string pct_text(double pct) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), pct < 1000 ? "%.3g" : "%.0f", pct);
    return buf;
}

// "CI width 3.2 % ≤ 5 %" or why there is no width to compare.
std::string width_text(const StopDecision& d, double target, bool narrow) {
    if (!d.width_pct) return "fewer than 2 values, no interval";
    if (std::isinf(*d.width_pct)) return "CI width unbounded (median 0) > " + pct_text(target) + " %";
    return "CI width " + pct_text(*d.width_pct) + " % " + (narrow ? "≤ " : "> ") + pct_text(target) + " %";
}

}  // namespace

StopDecision decide_stop(std::span<const double> values, std::uint32_t ran, const PrecisionTarget& target,
                         const BootstrapOptions& options) {
    StopDecision d;
    d.values = values.size();
    if (!values.empty()) {
        require_sample(values, "decide_stop");
        d.median = median(std::vector<double>(values.begin(), values.end()));
        d.ci = bootstrap_median_ci(values, options);
    }
    if (d.ci) {
        const double width = d.ci->high - d.ci->low;
        d.width_pct = width == 0 ? 0.0
                      : *d.median == 0 ? std::numeric_limits<double>::infinity()
                                       : width / std::fabs(*d.median) * 100.0;
    }
    const bool narrow = d.width_pct && *d.width_pct <= target.ci_width_pct;
    std::string after = " after " + std::to_string(ran);
    if (values.size() < ran) after += " (" + std::to_string(ran - values.size()) + " without a value)";
    if (ran >= target.min && narrow) {
        d.verdict = StopVerdict::kNarrow;
        d.text = "narrow: " + width_text(d, target.ci_width_pct, true) + after;
    } else if (ran >= target.max) {
        d.verdict = StopVerdict::kMaxReached;
        d.text = "max reached: " + width_text(d, target.ci_width_pct, narrow) + after;
    } else {
        d.text = width_text(d, target.ci_width_pct, narrow) + after;
    }
    return d;
}

}  // namespace stand::stats
