#include "detect/probe_aliasing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stand::detect {

std::optional<Finding> check_probe_aliasing(const PeriodicProbe& probe, const StepThrottling& box,
                                            const std::string& scope) {
    if (box.period_us == 0 || box.throttled_periods == 0 || probe.interval_ms <= 0) return std::nullopt;
    const double period_ms = static_cast<double>(box.period_us) / 1000.0;
    const double multiple = std::round(probe.interval_ms / period_ms);
    if (multiple < 1) return std::nullopt;  // several probes a period see several phases
    const double off_ms = std::fabs(probe.interval_ms - multiple * period_ms);
    if (off_ms > 0.05 * period_ms) return std::nullopt;
    const double swept_ms = off_ms * static_cast<double>(probe.probes);
    if (swept_ms >= period_ms) return std::nullopt;

    // The fix drifts at least 3 % of the period a probe (97 ms against 100
    // ms, the seed's), and enough to sweep the whole period within the
    // probes this step sent.
    const double needed_ms = std::ceil(period_ms / static_cast<double>(std::max<std::uint64_t>(probe.probes, 1)));
    const double fix_ms = multiple * period_ms - std::max({1.0, std::ceil(0.03 * period_ms), needed_ms});
    const std::string multiple_text =
        multiple == 1 ? "the" : "a multiple (x" + std::to_string(static_cast<int>(multiple)) + ") of the";
    char text[700];
    std::snprintf(text, sizeof text,
                  "%s every %.0f ms is within 5 %% of %s %.0f ms CFS period: over its %llu probes its phase in the "
                  "period moved %.1f ms in all, so it sampled one part of the period while the box was throttled in "
                  "%llu of %llu periods (%.2f s); an interval that drifts through the period within the step, e.g. "
                  "%.0f ms, meets every phase",
                  probe.what.c_str(), probe.interval_ms, multiple_text.c_str(), period_ms,
                  static_cast<unsigned long long>(probe.probes), swept_ms,
                  static_cast<unsigned long long>(box.throttled_periods), static_cast<unsigned long long>(box.periods),
                  static_cast<double>(box.throttled_us) / 1e6, fix_ms);
    return Finding{"probe-aliasing", scope, text};
}

}  // namespace stand::detect
