#include "stats/bootstrap.hpp"

#include "stats/descriptive.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

namespace stand::stats {
namespace {

void check_options(const BootstrapOptions& o) {
    if (o.resamples == 0) throw std::invalid_argument("bootstrap: resamples must be > 0");
    if (!(o.confidence > 0.0 && o.confidence < 1.0))
        throw std::invalid_argument("bootstrap: confidence must be in (0, 1)");
}

// Fills `out` with a resample of `values` and returns its median.
double resampled_median(std::span<const double> values, std::vector<double>& out, std::mt19937_64& rng) {
    out.resize(values.size());
    for (auto& v : out) v = values[draw_index(rng, values.size())];
    return median_in_place(out);
}

Interval percentile_interval(std::vector<double>& statistics, double confidence) {
    std::sort(statistics.begin(), statistics.end());
    const double tail = (1.0 - confidence) / 2;
    return {quantile_sorted(statistics, tail), quantile_sorted(statistics, 1.0 - tail)};
}

// f(median(a*), median(b*)) of each resample, a* drawn first, then b*, from
// one generator; with `skip_zero_a`, resamples whose median(a*) is 0 are left out.
template <class F>
std::vector<double> paired_medians(std::span<const double> a, std::span<const double> b, const BootstrapOptions& options,
                                   F f, bool skip_zero_a) {
    std::mt19937_64 rng(options.seed);
    std::vector<double> buffer, out;
    out.reserve(options.resamples);
    for (std::size_t i = 0; i < options.resamples; ++i) {
        const double ma = resampled_median(a, buffer, rng);
        const double mb = resampled_median(b, buffer, rng);
        if (!skip_zero_a || ma != 0.0) out.push_back(f(ma, mb));
    }
    return out;
}

}  // namespace

std::size_t draw_index(std::mt19937_64& rng, std::size_t n) {
    if (n == 0) throw std::invalid_argument("draw_index: empty range");
    using U = std::uint64_t;
    const U range = static_cast<U>(n);
    // Largest multiple of `range` that fits: values at or above it would bias the modulo.
    const U limit = std::numeric_limits<U>::max() - (std::numeric_limits<U>::max() % range);
    U r = rng();
    while (r >= limit) r = rng();
    return static_cast<std::size_t>(r % range);
}

std::optional<Interval> bootstrap_median_ci(std::span<const double> values, const BootstrapOptions& options) {
    require_sample(values, "bootstrap_median_ci");
    check_options(options);
    if (values.size() < 2) return std::nullopt;
    std::mt19937_64 rng(options.seed);
    std::vector<double> buffer, medians;
    medians.reserve(options.resamples);
    for (std::size_t i = 0; i < options.resamples; ++i) medians.push_back(resampled_median(values, buffer, rng));
    return percentile_interval(medians, options.confidence);
}

RatioEstimate ratio_of_medians(std::span<const double> a, std::span<const double> b, const BootstrapOptions& options) {
    require_sample(a, "ratio_of_medians (a)");
    require_sample(b, "ratio_of_medians (b)");
    check_options(options);
    const double median_a = median(std::vector<double>(a.begin(), a.end()));
    if (median_a == 0.0) throw std::invalid_argument("ratio_of_medians: median of a is 0");
    RatioEstimate result;
    result.ratio = median(std::vector<double>(b.begin(), b.end())) / median_a;
    if (a.size() < 2 || b.size() < 2) return result;

    auto ratios = paired_medians(a, b, options, [](double ma, double mb) { return mb / ma; }, true);
    result.resamples_used = ratios.size();
    if (!ratios.empty()) result.ci = percentile_interval(ratios, options.confidence);
    return result;
}

DifferenceEstimate difference_of_medians(std::span<const double> a, std::span<const double> b,
                                         const BootstrapOptions& options) {
    require_sample(a, "difference_of_medians (a)");
    require_sample(b, "difference_of_medians (b)");
    check_options(options);
    DifferenceEstimate result;
    result.difference = median(std::vector<double>(b.begin(), b.end())) - median(std::vector<double>(a.begin(), a.end()));
    if (a.size() < 2 || b.size() < 2) return result;
    auto differences = paired_medians(a, b, options, [](double ma, double mb) { return mb - ma; }, false);
    result.ci = percentile_interval(differences, options.confidence);
    return result;
}

}  // namespace stand::stats
