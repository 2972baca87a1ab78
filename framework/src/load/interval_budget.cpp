#include "load/interval_budget.hpp"

#include "load/duration.hpp"

#include <algorithm>

namespace stand::load {

std::size_t interval_histograms_kept(std::chrono::nanoseconds interval, std::chrono::nanoseconds duration,
                                     std::chrono::nanoseconds timeout, unsigned threads) {
    if (interval.count() <= 0) return 0;
    const auto per_thread = static_cast<std::size_t>((duration + timeout) / interval) + 1;
    return per_thread * std::max(threads, 1U);
}

std::string interval_budget_refusal(std::chrono::nanoseconds interval, std::chrono::nanoseconds duration,
                                    std::chrono::nanoseconds timeout, unsigned threads) {
    const std::size_t kept = interval_histograms_kept(interval, duration, timeout, threads);
    if (kept <= kMaxIntervalHistograms) return {};
    const std::chrono::nanoseconds fits = interval_within_budget(std::chrono::milliseconds(1), duration, timeout, threads);
    return "an interval log in " + format_duration(interval) + " intervals keeps up to " + std::to_string(kept) +
           " interval histograms (" + std::to_string(kept / std::max(threads, 1U)) + " intervals of the " +
           format_duration(duration) + " duration and the " + format_duration(timeout) +
           " timeout's drain after it, for each of " + std::to_string(threads) + " threads); at most " +
           std::to_string(kMaxIntervalHistograms) + ": take --hdr-log-interval " + format_duration(fits) +
           " or longer, or fewer threads";
}

std::chrono::nanoseconds interval_within_budget(std::chrono::nanoseconds wanted, std::chrono::nanoseconds duration,
                                                std::chrono::nanoseconds timeout, unsigned threads) {
    if (wanted.count() <= 0) return wanted;
    const auto per_thread = static_cast<std::int64_t>(kMaxIntervalHistograms / std::max(threads, 1U));
    // span / interval + 1 <= per_thread, i.e. interval > span / per_thread, in whole multiples of `wanted`.
    const auto span = (duration + timeout).count();
    const auto shortest = span / per_thread + 1;
    const auto multiples = std::max<std::int64_t>(1, (shortest + wanted.count() - 1) / wanted.count());
    return std::chrono::nanoseconds(wanted.count() * multiples);
}

}  // namespace stand::load
