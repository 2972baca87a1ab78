#include "stats/summary.hpp"

#include "stats/descriptive.hpp"

namespace stand::stats {

Summary summarize(std::vector<double> values, const BootstrapOptions& options) {
    require_sample(values, "summarize");
    Summary s;
    s.n = values.size();
    s.min = min(values);
    s.max = max(values);
    if (auto ci = bootstrap_median_ci(values, options)) {
        s.ci_low = ci->low;
        s.ci_high = ci->high;
    }
    s.median = median_in_place(values);  // last: reorders the values
    return s;
}

}  // namespace stand::stats
