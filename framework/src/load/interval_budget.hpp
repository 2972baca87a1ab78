// How many interval histograms an HdrHistogram interval log of a load keeps
// (load/interval_histograms.hpp), checked before the load starts: the
// intervals of its window and of the drain after it (a response completes
// at most `timeout` after its send), for each load thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace stand::load {

// At most this many, all threads together (an interval a thread kept costs
// about 130 bytes and 16 for each slot its values fell in).
inline constexpr std::size_t kMaxIntervalHistograms = 500'000;

std::size_t interval_histograms_kept(std::chrono::nanoseconds interval, std::chrono::nanoseconds duration,
                                     std::chrono::nanoseconds timeout, unsigned threads);
// "" when it keeps at most kMaxIntervalHistograms; else why not: the
// figure and the shortest interval that fits.
std::string interval_budget_refusal(std::chrono::nanoseconds interval, std::chrono::nanoseconds duration,
                                    std::chrono::nanoseconds timeout, unsigned threads);
// `wanted`, or the smallest multiple of it that keeps at most kMaxIntervalHistograms.
std::chrono::nanoseconds interval_within_budget(std::chrono::nanoseconds wanted, std::chrono::nanoseconds duration,
                                                std::chrono::nanoseconds timeout, unsigned threads);

}  // namespace stand::load
