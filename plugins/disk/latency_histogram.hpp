// disk probe: a log-linear latency histogram (HDR-like, header-only), sent
// to the host as [[bucket middle, count], ...] for its percentiles.
//
// Plugins may not include the host's framework/src/load/hdr_histogram.*, so
// the probe keeps its own: values below 2048 ns are exact, above that each
// power of two is split into 1024 buckets, so a bucket is at most 1/1024 of
// its values wide (3 significant digits, as HdrHistogram's default) and its
// middle is within 0.05 % of any value in it. Recording is one clz and one
// increment; the counts (56 320 buckets, 440 KiB, on the heap) are touched
// only in the few KiB around the latencies seen. Histograms of several I/O
// threads are merged with add().
#pragma once

#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace stand_disk {

class LatencyHistogram {
public:
    static constexpr unsigned kSubBits = 10;              // 1024 buckets per power of two
    static constexpr unsigned kSub = 1u << kSubBits;
    static constexpr unsigned kBuckets = (64 - kSubBits) * kSub + kSub;  // covers all uint64

    void record(std::uint64_t ns) noexcept {
        ++counts_[index_of(ns)];
        ++count_;
        sum_ += ns;
        if (ns > max_) max_ = ns;
        if (ns < min_) min_ = ns;
    }

    void add(const LatencyHistogram& other) noexcept {
        for (unsigned i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
        count_ += other.count_;
        sum_ += other.sum_;
        if (other.max_ > max_) max_ = other.max_;
        if (other.min_ < min_) min_ = other.min_;
    }

    std::uint64_t count() const noexcept { return count_; }
    std::uint64_t max() const noexcept { return count_ ? max_ : 0; }
    std::uint64_t min() const noexcept { return count_ ? min_ : 0; }
    double mean() const noexcept { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0; }

    // The value at percentile p (0..100): the middle of the bucket holding the
    // ceil(p/100 * count)-th smallest value, clamped to [min, max].
    std::uint64_t percentile(double p) const noexcept {
        if (count_ == 0) return 0;
        if (p <= 0) return min();
        if (p >= 100) return max();
        auto rank = static_cast<std::uint64_t>(p / 100.0 * static_cast<double>(count_) + 0.999999999);
        if (rank < 1) rank = 1;
        std::uint64_t seen = 0;
        for (unsigned i = 0; i < kBuckets; ++i) {
            seen += counts_[i];
            if (seen >= rank) {
                std::uint64_t v = middle_of(i);
                if (v < min_) v = min_;
                if (v > max_) v = max_;
                return v;
            }
        }
        return max();
    }

    // The non-empty buckets in ascending order as (middle, count).
    std::vector<std::pair<std::uint64_t, std::uint64_t>> buckets() const {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
        for (unsigned i = 0; i < kBuckets; ++i)
            if (counts_[i] != 0) out.emplace_back(middle_of(i), counts_[i]);
        return out;
    }

    static unsigned index_of(std::uint64_t v) noexcept {
        if (v < 2 * kSub) return static_cast<unsigned>(v);
        const unsigned msb = 63u - static_cast<unsigned>(std::countl_zero(v));
        const unsigned shift = msb - kSubBits;  // >= 1
        return shift * kSub + static_cast<unsigned>(v >> shift);
    }
    static std::uint64_t lowest_of(unsigned index) noexcept {
        if (index < 2 * kSub) return index;
        const unsigned shift = index / kSub - 1;
        return static_cast<std::uint64_t>(index - shift * kSub) << shift;
    }
    static std::uint64_t middle_of(unsigned index) noexcept {
        if (index < 2 * kSub) return index;
        const unsigned shift = index / kSub - 1;
        return lowest_of(index) + ((std::uint64_t{1} << shift) >> 1);
    }

private:
    std::vector<std::uint64_t> counts_ = std::vector<std::uint64_t>(kBuckets, 0);
    std::uint64_t count_ = 0;
    std::uint64_t sum_ = 0;
    std::uint64_t max_ = 0;
    std::uint64_t min_ = UINT64_MAX;
};

}  // namespace stand_disk
