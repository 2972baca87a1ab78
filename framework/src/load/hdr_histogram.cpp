#include "load/hdr_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

namespace stand::load {

HdrHistogram::HdrHistogram(std::uint64_t highest, int significant_digits, std::uint64_t lowest)
    : highest_(highest), lowest_(lowest), digits_(significant_digits) {
    if (significant_digits < 1 || significant_digits > 5)
        throw std::invalid_argument("HdrHistogram: significant digits must be in 1..5");
    if (lowest < 1) throw std::invalid_argument("HdrHistogram: lowest must be >= 1");
    if (highest < 2 * lowest) throw std::invalid_argument("HdrHistogram: highest must be >= 2 * lowest");
    if (highest > (UINT64_MAX >> 2)) throw std::invalid_argument("HdrHistogram: highest is too large");

    std::uint64_t single_unit_limit = 2;
    for (int i = 0; i < significant_digits; ++i) single_unit_limit *= 10;
    // ceil(log2(2 * 10^digits)) bits of sub-buckets; half of them per bucket after the first.
    const int sub_bucket_count_magnitude = static_cast<int>(std::bit_width(single_unit_limit - 1));
    sub_bucket_half_count_magnitude_ = std::max(sub_bucket_count_magnitude, 1) - 1;
    unit_magnitude_ = static_cast<int>(std::bit_width(lowest)) - 1;
    sub_bucket_count_ = std::uint64_t{1} << (sub_bucket_half_count_magnitude_ + 1);
    sub_bucket_half_count_ = sub_bucket_count_ / 2;
    sub_bucket_mask_ = (sub_bucket_count_ - 1) << unit_magnitude_;

    // Buckets until the first value that cannot be tracked exceeds `highest`.
    std::uint64_t smallest_untrackable = sub_bucket_count_ << unit_magnitude_;
    int buckets = 1;
    while (smallest_untrackable <= highest) {
        smallest_untrackable <<= 1;
        ++buckets;
    }
    bucket_count_ = buckets;
    slot_count_ = static_cast<std::size_t>(bucket_count_ + 1) * sub_bucket_half_count_;
}

void HdrHistogram::allocate() {
    if (counts_.empty()) counts_ = posix::ZeroPages(slot_count_);
}

int HdrHistogram::bucket_index(std::uint64_t value) const noexcept {
    const int pow2ceiling = 64 - std::countl_zero(value | sub_bucket_mask_);
    return pow2ceiling - unit_magnitude_ - (sub_bucket_half_count_magnitude_ + 1);
}

std::size_t HdrHistogram::counts_index(std::uint64_t value) const noexcept {
    const int bucket = bucket_index(value);
    const std::uint64_t sub = sub_bucket_index(value, bucket);
    return (static_cast<std::size_t>(bucket + 1) << sub_bucket_half_count_magnitude_) +
           (sub - sub_bucket_half_count_);
}

std::uint64_t HdrHistogram::value_at_index(std::size_t index) const noexcept {
    int bucket = static_cast<int>(index >> sub_bucket_half_count_magnitude_) - 1;
    std::uint64_t sub = (index & (sub_bucket_half_count_ - 1)) + sub_bucket_half_count_;
    if (bucket < 0) {
        sub -= sub_bucket_half_count_;
        bucket = 0;
    }
    return sub << (bucket + unit_magnitude_);
}

void HdrHistogram::record_n(std::uint64_t value, std::uint64_t n) {
    if (n == 0) return;
    allocate();
    if (value > highest_) {
        value = highest_;
        clamped_ += n;
    }
    counts_[counts_index(value)] += n;
    total_ += n;
    sum_ += static_cast<HdrSum>(value) * n;
    if (value < min_) min_ = value;
    if (value > max_) max_ = value;
}

void HdrHistogram::merge(const HdrHistogram& other) {
    if (other.total_ == 0) return;
    if (same_layout(other)) {
        allocate();
        for (std::size_t i = 0; i < counts_.size(); ++i)
            if (other.counts_[i] != 0) counts_[i] += other.counts_[i];  // a zero written would make its page resident
        total_ += other.total_;
        sum_ += other.sum_;
        clamped_ += other.clamped_;
        min_ = std::min(min_, other.min_);
        max_ = std::max(max_, other.max_);
        return;
    }
    // Different layouts: re-record each slot at its median, then fix the exact stats.
    const std::uint64_t before_clamped = clamped_;
    other.for_each_bucket([&](std::uint64_t low, std::uint64_t, std::uint64_t n) {
        const std::uint64_t v = std::clamp(other.median_equivalent(low), other.min_, other.max_);
        record_n(v, n);
    });
    clamped_ = before_clamped + other.clamped_;
    min_ = std::min(min_, std::min(other.min_, highest_));
    max_ = std::max(max_, std::min(other.max_, highest_));
}

void HdrHistogram::drain_into(HdrHistogram& into) {
    if (total_ == 0) return;
    if (!into.same_layout(*this)) throw std::invalid_argument("HdrHistogram::drain_into: another layout");
    into.merge(*this);
    for (std::size_t i = 0; i < counts_.size(); ++i)
        if (counts_[i] != 0) counts_[i] = 0;  // its page is resident already
    forget_totals();
}

HdrHistogram::Parts HdrHistogram::parts() const {
    Parts p{highest_, lowest_, digits_, total_, min(), max_, clamped_, sum_, {}};
    for (std::size_t i = 0; i < counts_.size(); ++i)
        if (counts_[i] != 0) p.slots.emplace_back(i, counts_[i]);
    return p;
}

HdrHistogram::Parts HdrHistogram::take_parts() {
    Parts p{highest_, lowest_, digits_, total_, min(), max_, clamped_, sum_, {}};
    if (total_ != 0)
        for (std::size_t i = counts_index(min_), last = counts_index(max_); i <= last; ++i)
            if (counts_[i] != 0) {
                p.slots.emplace_back(i, counts_[i]);
                counts_[i] = 0;  // its page stays resident for the next values
            }
    forget_totals();
    return p;
}

HdrHistogram HdrHistogram::from_parts(const Parts& p) {
    HdrHistogram h(p.highest, p.digits, p.lowest);
    if (!p.slots.empty()) h.allocate();
    std::uint64_t counted = 0;
    std::size_t next = 0;
    for (const auto& [index, n] : p.slots) {
        if (index >= h.slot_count_)
            throw std::invalid_argument("slot " + std::to_string(index) + " is beyond the layout's " +
                                        std::to_string(h.slot_count_));
        if (index < next) throw std::invalid_argument("slots are not in ascending order at " + std::to_string(index));
        if (n == 0) throw std::invalid_argument("slot " + std::to_string(index) + " has a count of 0");
        if (counted + n < counted) throw std::invalid_argument("the counts overflow");
        h.counts_[index] = n;
        counted += n;
        next = index + 1;
    }
    if (counted != p.total)
        throw std::invalid_argument("the slots count " + std::to_string(counted) + " values, total says " +
                                    std::to_string(p.total));
    if (p.clamped > p.total) throw std::invalid_argument("more values clamped than recorded");
    if (p.total != 0) {
        if (p.min > p.max) throw std::invalid_argument("min is above max");
        if (h.counts_index(p.min) != p.slots.front().first || h.counts_index(p.max) != p.slots.back().first)
            throw std::invalid_argument("min or max is outside the first or last slot");
        const HdrSum low = static_cast<HdrSum>(p.min) * p.total, high = static_cast<HdrSum>(p.max) * p.total;
        if (p.sum < low || p.sum > high) throw std::invalid_argument("the sum is outside total * [min, max]");
        h.min_ = p.min;
        h.max_ = p.max;
    } else if (p.sum != 0 || p.max != 0) {
        throw std::invalid_argument("an empty histogram with a sum or a max");
    }
    h.total_ = p.total;
    h.clamped_ = p.clamped;
    h.sum_ = p.sum;
    return h;
}

void HdrHistogram::reset() noexcept {
    counts_.clear();
    forget_totals();
}

void HdrHistogram::forget_totals() noexcept {
    total_ = 0;
    min_ = UINT64_MAX;
    max_ = 0;
    clamped_ = 0;
    sum_ = 0;
}

double HdrHistogram::mean() const noexcept {
    return total_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(total_);
}

double HdrHistogram::stddev() const noexcept {
    if (total_ == 0) return 0.0;
    const double m = mean();
    double acc = 0;
    for_each_bucket([&](std::uint64_t low, std::uint64_t, std::uint64_t n) {
        const double d = static_cast<double>(median_equivalent(low)) - m;
        acc += d * d * static_cast<double>(n);
    });
    return std::sqrt(acc / static_cast<double>(total_));
}

std::uint64_t HdrHistogram::value_at_percentile(double p) const noexcept {
    if (total_ == 0) return 0;
    if (!(p > 0)) return min_;
    if (p >= 100) return max_;
    // Nearest rank, ceil(p/100 * n), at least 1.
    const double exact = p / 100.0 * static_cast<double>(total_);
    auto rank = static_cast<std::uint64_t>(std::ceil(exact));
    rank = std::clamp<std::uint64_t>(rank, 1, total_);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
        seen += counts_[i];
        if (seen >= rank) return std::clamp(highest_equivalent(value_at_index(i)), min_, max_);
    }
    return max_;
}

std::uint64_t HdrHistogram::count_at_or_below(std::uint64_t value) const noexcept {
    if (value > highest_) return total_;
    if (counts_.empty()) return 0;
    const std::size_t last = counts_index(value);
    std::uint64_t n = 0;
    for (std::size_t i = 0; i <= last; ++i) n += counts_[i];
    return n;
}

std::uint64_t HdrHistogram::lowest_equivalent(std::uint64_t value) const noexcept {
    const int bucket = bucket_index(value);
    return sub_bucket_index(value, bucket) << (bucket + unit_magnitude_);
}

std::uint64_t HdrHistogram::size_of_equivalent_range(std::uint64_t value) const noexcept {
    const int bucket = bucket_index(value);
    const std::uint64_t sub = sub_bucket_index(value, bucket);
    const int adjusted = sub >= sub_bucket_count_ ? bucket + 1 : bucket;
    return std::uint64_t{1} << (unit_magnitude_ + adjusted);
}

std::uint64_t HdrHistogram::next_non_equivalent(std::uint64_t value) const noexcept {
    return lowest_equivalent(value) + size_of_equivalent_range(value);
}

std::uint64_t HdrHistogram::highest_equivalent(std::uint64_t value) const noexcept {
    return next_non_equivalent(value) - 1;
}

std::uint64_t HdrHistogram::median_equivalent(std::uint64_t value) const noexcept {
    return lowest_equivalent(value) + (size_of_equivalent_range(value) >> 1);
}

}  // namespace stand::load
