// The stopping rule of adaptive repetitions (scenarios/README.md, "Adaptive
// repetitions"): after each repetition from `min` on, the bootstrap interval
// of the median (stats/bootstrap.hpp) of the values so far; stop when its
// width relative to the median is at most `ci_width_pct`, or at `max`.
#pragma once

#include "stats/bootstrap.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace stand::stats {

struct PrecisionTarget {
    std::uint32_t min = 1;
    std::uint32_t max = 1;
    double ci_width_pct = 5;  // > 0
};

enum class StopVerdict { kGoOn, kNarrow, kMaxReached };

struct StopDecision {
    StopVerdict verdict = StopVerdict::kGoOn;
    std::size_t values = 0;           // how many values the interval is of
    std::optional<double> median;     // of the values (none without values)
    std::optional<Interval> ci;       // none for fewer than 2 values
    std::optional<double> width_pct;  // (high - low) / |median| * 100; infinite when the median is 0 and the interval is not
    // "narrow: CI width 3.2 % ≤ 5 % after 4", "max reached: ...", "CI width 7.1 % > 5 % after 3";
    // "after 4 (1 without a value)" when repetitions failed or lacked the metric.
    std::string text;
};

// `ran`: the repetitions run so far (failed ones count against max);
// `values`: the metric's values of those that gave one. Before `min` the
// verdict is always kGoOn. Throws std::invalid_argument on a NaN.
StopDecision decide_stop(std::span<const double> values, std::uint32_t ran, const PrecisionTarget& target,
                         const BootstrapOptions& options = {});

}  // namespace stand::stats
