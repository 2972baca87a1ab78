// The per-cell summary of a sample: n, median, min, max and the bootstrap
// percentile interval of the median (stats/bootstrap.hpp; none for n < 2).
#pragma once

#include "stats/bootstrap.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace stand::stats {

struct Summary {
    std::size_t n = 0;
    double median = 0;
    double min = 0;
    double max = 0;
    std::optional<double> ci_low;   // both set, or both unset (n < 2)
    std::optional<double> ci_high;
};

// Throws std::invalid_argument on an empty sample or a NaN.
Summary summarize(std::vector<double> values, const BootstrapOptions& options = {});

}  // namespace stand::stats
