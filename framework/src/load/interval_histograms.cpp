#include "load/interval_histograms.hpp"

namespace stand::load {

IntervalHistograms::IntervalHistograms(std::int64_t interval_ns, std::uint64_t highest, std::size_t intervals_hint)
    : interval_ns_(interval_ns), highest_(highest) {
    if (enabled()) intervals_.reserve(intervals_hint);
}

void IntervalHistograms::grow(std::size_t count) {
    while (intervals_.size() < count) intervals_.emplace_back(highest_);
}

void IntervalHistograms::merge(const IntervalHistograms& other) {
    if (!other.enabled()) return;
    if (!enabled()) {
        interval_ns_ = other.interval_ns_;
        highest_ = other.highest_;
    }
    grow(other.intervals_.size());
    for (std::size_t i = 0; i < other.intervals_.size(); ++i) intervals_[i].merge(other.intervals_[i]);
}

}  // namespace stand::load
