// Order statistics of a sample: median (Python's statistics.median rule), min,
// max and interpolated quantiles. Inputs must be non-empty and NaN-free; the
// checked functions throw std::invalid_argument otherwise.
#pragma once

#include <span>
#include <vector>

namespace stand::stats {

// The middle value; for an even count the mean of the two middle values,
// (lower + upper) / 2, exactly as Python's statistics.median computes it;
// lower / 2 + upper / 2 where the sum overflows, so that the median of
// finite values is finite.
double median(std::vector<double> values);
double min(std::span<const double> values);
double max(std::span<const double> values);

// median() without the checks and without a copy: reorders `values`.
// For inner loops (the bootstrap) over data that was checked once.
double median_in_place(std::span<double> values);

// Quantile q in [0, 1] of ascending `sorted` values, interpolating linearly
// between the closest ranks (Hyndman & Fan type 7, NumPy's default):
// h = (n - 1) q, result = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]),
// or the two weighted where that difference overflows: finite for finite values.
double quantile_sorted(std::span<const double> sorted, double q);

// Throws std::invalid_argument naming `what` if `values` is empty or holds a NaN.
void require_sample(std::span<const double> values, const char* what);

}  // namespace stand::stats
