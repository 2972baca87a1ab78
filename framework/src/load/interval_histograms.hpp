// The latency histogram of each interval of a run (by completion time since
// the window opened), what an HdrHistogram interval log holds
// (load/hdr_interval_log.hpp, `stand load --hdr-log`). Each load thread
// keeps its own and they are merged at the end, like the whole-run
// histograms. An interval's slots are allocated when its first value comes
// and only the pages its values fall in become resident (HdrHistogram's
// ZeroPages): a few KiB per interval and thread.
#pragma once

#include "load/hdr_histogram.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stand::load {

class IntervalHistograms {
public:
    // interval_ns 0: off (record() is never called; nothing is kept).
    IntervalHistograms() = default;
    IntervalHistograms(std::int64_t interval_ns, std::uint64_t highest, std::size_t intervals_hint);

    bool enabled() const noexcept { return interval_ns_ > 0; }
    std::int64_t interval_ns() const noexcept { return interval_ns_; }

    // `since_start_ns`: when the value was taken, from the window's opening.
    void record(std::int64_t since_start_ns, std::uint64_t value) {
        const auto i = since_start_ns > 0 ? static_cast<std::size_t>(since_start_ns / interval_ns_) : 0;
        if (i >= intervals_.size()) grow(i + 1);
        intervals_[i].record(value);
    }
    // Interval by interval; an off one takes `other`'s interval and layout.
    void merge(const IntervalHistograms& other);

    // Up to the last interval a value fell in; empty intervals between are there, empty.
    const std::vector<HdrHistogram>& intervals() const noexcept { return intervals_; }

private:
    void grow(std::size_t count);

    std::int64_t interval_ns_ = 0;
    std::uint64_t highest_ = 0;
    std::vector<HdrHistogram> intervals_;
};

}  // namespace stand::load
