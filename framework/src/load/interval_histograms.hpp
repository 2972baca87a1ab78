// The latency histogram of each interval of a run (by completion time since
// the window opened), what an HdrHistogram interval log holds
// (load/hdr_interval_log.hpp, `stand load --hdr-log`). Each load thread
// keeps its own and they are merged at the end, like the whole-run
// histograms.
//
// Memory: one full histogram per thread, the interval values fall in now
// (its slots allocated on the first value, only the pages its values fall
// in resident: HdrHistogram's ZeroPages). When a thread's values move on to
// another interval, the one they left is kept as its non-empty slots only
// (HdrHistogram::Parts: about 130 bytes, and 16 for each slot that holds a
// value); an interval without a value costs nothing. What a load may keep
// at most is checked before it starts (load/interval_budget.hpp).
#pragma once

#include "load/hdr_histogram.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace stand::load {

class IntervalHistograms {
public:
    // interval_ns 0: off (record() is never called; nothing is kept).
    IntervalHistograms() = default;
    IntervalHistograms(std::int64_t interval_ns, std::uint64_t highest);

    bool enabled() const noexcept { return interval_ns_ > 0; }
    std::int64_t interval_ns() const noexcept { return interval_ns_; }

    // `since_start_ns`: when the value was taken, from the window's opening.
    // A value of an interval the thread had left already (rare: completion
    // times out of order) is added to it.
    void record(std::int64_t since_start_ns, std::uint64_t value) {
        const auto i = since_start_ns > 0 ? static_cast<std::size_t>(since_start_ns / interval_ns_) : 0;
        if (i != open_index_) move_to(i);
        open_.record(value);
    }
    // Interval by interval; an off one takes `other`'s interval and layout.
    void merge(const IntervalHistograms& other);

    // Up to the last interval a value fell in (0: none).
    std::size_t size() const noexcept;
    // Interval i's values (empty parts for one nothing fell in).
    HdrHistogram::Parts interval(std::size_t i) const;
    // What the kept intervals take (the open histogram's slots counted whole).
    std::size_t memory_bytes() const noexcept;

private:
    using Kept = std::pair<std::size_t, HdrHistogram::Parts>;  // interval, its non-empty slots
    void move_to(std::size_t index);
    void keep(std::size_t index, HdrHistogram::Parts parts);

    std::int64_t interval_ns_ = 0;
    std::uint64_t highest_ = 0;
    HdrHistogram open_;  // the interval the values fall in now
    std::size_t open_index_ = 0;
    std::vector<Kept> kept_;  // the others that hold a value, by interval
};

}  // namespace stand::load
