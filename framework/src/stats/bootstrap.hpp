// Percentile bootstrap intervals: of the median of one sample, and of the
// ratio of the medians of two samples (B/A).
//
// Deterministic: the generator is std::mt19937_64 (its output sequence is fixed
// by the C++ standard) seeded with BootstrapOptions::seed, and indices are drawn
// by draw_index() (rejection sampling, no std::uniform_int_distribution, whose
// algorithm differs between standard libraries). The same input and options give
// the same interval on every platform.
//
// The interval is the percentile interval: the (1-c)/2 and (1+c)/2 quantiles
// (type 7, see quantile_sorted) of the `resamples` bootstrap statistics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>

namespace stand::stats {

struct BootstrapOptions {
    std::size_t resamples = 10000;
    std::uint64_t seed = 0x5eed5eed5eed5eedULL;
    double confidence = 0.95;  // in (0, 1)
};

struct Interval {
    double low = 0;
    double high = 0;
};

// The fewest values whose percentile bootstrap interval of the median can be
// a 95 % one: that interval never leaves [min, max] of the sample, and the
// range of n values holds the true median with probability 1 - 2^(1-n) only
// (50 % for 2, 75 % for 3, 93.8 % for 5, 96.9 % for 6). A decision that needs
// the interval (a threshold "on": "ci", a compare gate) is not taken with fewer.
inline constexpr std::size_t kMedianIntervalMinN = 6;

// A uniform index in [0, n), n > 0, without modulo bias.
std::size_t draw_index(std::mt19937_64& rng, std::size_t n);

// The interval of the median; nullopt for fewer than 2 values.
// Throws std::invalid_argument on an empty sample, NaN or bad options.
std::optional<Interval> bootstrap_median_ci(std::span<const double> values, const BootstrapOptions& options = {});

struct RatioEstimate {
    double ratio = 0;              // median(b) / median(a)
    std::optional<Interval> ci;    // nullopt if a or b has fewer than 2 values
    std::size_t resamples_used = 0;  // resamples whose median(a*) was not 0
};

// Ratio of medians B/A: each resample draws a* from a and b* from b
// independently (a first, then b, from one generator). Resamples with
// median(a*) == 0 are left out (resamples_used says how many remained; no
// interval if none). Throws std::invalid_argument if median(a) == 0.
RatioEstimate ratio_of_medians(std::span<const double> a, std::span<const double> b,
                               const BootstrapOptions& options = {});

struct DifferenceEstimate {
    double difference = 0;         // median(b) - median(a)
    std::optional<Interval> ci;    // nullopt if a or b has fewer than 2 values
};

// Difference of medians B - A, resampled as ratio_of_medians does.
DifferenceEstimate difference_of_medians(std::span<const double> a, std::span<const double> b,
                                         const BootstrapOptions& options = {});

}  // namespace stand::stats
