// A log-linear histogram in the layout of HdrHistogram (Gil Tene): integer
// values are kept with a fixed number of significant decimal digits, so the
// memory is bounded (logarithmic in the range) and recording is a few shifts
// and one increment. Unit-agnostic: the caller records µs or ns.
//
// Layout: `2 * 10^digits` rounded up to a power of two sub-buckets (2048 for
// 3 digits) cover [0, 2048) at unit resolution; each following bucket doubles
// the range and the step, reusing the upper half of the sub-buckets. A value
// v is counted in the slot of its "equivalence range"
// [lowest_equivalent(v), highest_equivalent(v)], whose width is at most
// v / 2^(magnitude of half the sub-buckets) (1/1024 for 3 digits).
//
// Not thread-safe: keep one per thread and merge() at the end.
#pragma once

#include "posix/zero_pages.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace stand::load {

__extension__ typedef unsigned __int128 HdrSum;

class HdrHistogram {
public:
    // Tracks values in [0, highest] with `significant_digits` (1..5) digits;
    // `lowest` (>= 1) is the smallest value that is still told apart from 0 at
    // unit resolution (1 for integers). Larger values are clamped to
    // `highest` and counted by clamped().
    explicit HdrHistogram(std::uint64_t highest = 3'600'000'000ULL, int significant_digits = 3,
                          std::uint64_t lowest = 1);

    // The counts are allocated on the first value (or merge): a histogram
    // nothing was recorded in costs no slots (the closed model's send lag,
    // results built and copied before a run).
    void record(std::uint64_t value) { record_n(value, 1); }
    void record_n(std::uint64_t value, std::uint64_t n);
    // Adds every value of `other`. Same layout: counts are added slot by slot;
    // otherwise each of `other`'s slots is re-recorded at its median value.
    void merge(const HdrHistogram& other);
    void reset() noexcept;
    // Adds every value into `into` (the same layout) and empties this one,
    // keeping its pages: for a histogram refilled at once, where reset()'s
    // handing the pages back would cost a system call and page faults.
    void drain_into(HdrHistogram& into);

    std::uint64_t count() const noexcept { return total_; }
    bool empty() const noexcept { return total_ == 0; }
    // Exact (not bucketed): min, max and mean of the recorded values.
    std::uint64_t min() const noexcept { return total_ == 0 ? 0 : min_; }
    std::uint64_t max() const noexcept { return max_; }
    double mean() const noexcept;
    double stddev() const noexcept;  // from the buckets (median of each range)
    std::uint64_t clamped() const noexcept { return clamped_; }

    // Nearest rank: the value v such that ceil(p/100 * count) values are <= v,
    // reported as the highest value equivalent to it, clamped to [min, max].
    // 0 for an empty histogram; p is clamped to [0, 100].
    std::uint64_t value_at_percentile(double p) const noexcept;
    // How many recorded values are <= value (counting whole ranges).
    std::uint64_t count_at_or_below(std::uint64_t value) const noexcept;

    // Equivalence ranges: all values in one range share a slot.
    std::uint64_t lowest_equivalent(std::uint64_t value) const noexcept;
    std::uint64_t highest_equivalent(std::uint64_t value) const noexcept;
    std::uint64_t size_of_equivalent_range(std::uint64_t value) const noexcept;
    std::uint64_t median_equivalent(std::uint64_t value) const noexcept;
    std::uint64_t next_non_equivalent(std::uint64_t value) const noexcept;
    bool equivalent(std::uint64_t a, std::uint64_t b) const noexcept {
        return lowest_equivalent(a) == lowest_equivalent(b);
    }

    // Calls f(lowest, highest, count) for every non-empty slot, in value order.
    template <class F>
    void for_each_bucket(F&& f) const {
        for (std::size_t i = 0; i < counts_.size(); ++i)
            if (counts_[i] != 0) {
                const std::uint64_t low = value_at_index(i);
                f(low, highest_equivalent(low), counts_[i]);
            }
    }

    bool same_layout(const HdrHistogram& other) const noexcept {
        return highest_ == other.highest_ && lowest_ == other.lowest_ && digits_ == other.digits_;
    }
    std::uint64_t highest_trackable() const noexcept { return highest_; }
    int significant_digits() const noexcept { return digits_; }
    std::size_t slot_count() const noexcept { return slot_count_; }
    std::size_t memory_bytes() const noexcept { return counts_.size() * sizeof(std::uint64_t); }  // 0 until a value

    // Everything a histogram holds, for moving one between processes (a
    // generator on another host) without losing a count: merging the
    // rebuilt histograms is exactly merging the originals.
    struct Parts {
        std::uint64_t highest = 0, lowest = 1;
        int digits = 3;
        std::uint64_t total = 0, min = 0, max = 0, clamped = 0;
        HdrSum sum = 0;
        std::vector<std::pair<std::size_t, std::uint64_t>> slots;  // (index, count) of the non-empty slots, ascending
    };
    Parts parts() const;
    // parts(), and this histogram emptied, keeping its pages: for one refilled
    // at once (an interval's, load/interval_histograms.hpp). Looks at the
    // slots between the min's and the max's only.
    Parts take_parts();
    // Throws std::invalid_argument naming what is inconsistent (a layout the
    // constructor refuses, a slot out of range or out of order, counts that
    // do not add up to `total`, min or max outside their slots).
    static HdrHistogram from_parts(const Parts& parts);

private:
    int bucket_index(std::uint64_t value) const noexcept;
    std::uint64_t sub_bucket_index(std::uint64_t value, int bucket) const noexcept {
        return value >> (bucket + unit_magnitude_);
    }
    std::size_t counts_index(std::uint64_t value) const noexcept;
    void forget_totals() noexcept;  // count, sum, min, max and clamped back to none
    void allocate();
    std::uint64_t value_at_index(std::size_t index) const noexcept;

    std::uint64_t highest_;
    std::uint64_t lowest_;
    int digits_;
    int unit_magnitude_ = 0;
    int sub_bucket_half_count_magnitude_ = 0;
    std::uint64_t sub_bucket_count_ = 0;
    std::uint64_t sub_bucket_half_count_ = 0;
    std::uint64_t sub_bucket_mask_ = 0;
    int bucket_count_ = 0;
    std::size_t slot_count_ = 0;
    // Empty, or slot_count_ slots; only the pages values fell in are resident
    // (a 1 h / 3-digit layout is 188 KiB of slots).
    posix::ZeroPages counts_;

    std::uint64_t total_ = 0;
    std::uint64_t min_ = UINT64_MAX;
    std::uint64_t max_ = 0;
    std::uint64_t clamped_ = 0;
    // The sum of the values, 128 bits wide so that ns sums never overflow.
    HdrSum sum_ = 0;
};

}  // namespace stand::load
