#include "load/interval_histograms.hpp"

#include <algorithm>
#include <stdexcept>

namespace stand::load {
namespace {

// Adds `from`'s values to `into` (the same layout), slot by slot.
void add_parts(HdrHistogram::Parts& into, const HdrHistogram::Parts& from) {
    if (from.total == 0) return;
    if (into.total == 0) {
        into = from;
        return;
    }
    if (into.highest != from.highest || into.lowest != from.lowest || into.digits != from.digits)
        throw std::logic_error("IntervalHistograms: intervals of two layouts");
    std::vector<std::pair<std::size_t, std::uint64_t>> slots;
    slots.reserve(into.slots.size() + from.slots.size());
    auto a = into.slots.cbegin();
    auto b = from.slots.cbegin();
    while (a != into.slots.cend() || b != from.slots.cend()) {
        if (b == from.slots.cend() || (a != into.slots.cend() && a->first < b->first)) {
            slots.push_back(*a++);
        } else if (a == into.slots.cend() || b->first < a->first) {
            slots.push_back(*b++);
        } else {
            slots.emplace_back(a->first, a->second + b->second);
            ++a;
            ++b;
        }
    }
    into.slots = std::move(slots);
    into.total += from.total;
    into.sum += from.sum;
    into.clamped += from.clamped;
    into.min = std::min(into.min, from.min);
    into.max = std::max(into.max, from.max);
}

}  // namespace

IntervalHistograms::IntervalHistograms(std::int64_t interval_ns, std::uint64_t highest)
    : interval_ns_(interval_ns), highest_(highest), open_(highest) {}

void IntervalHistograms::move_to(std::size_t index) {
    if (!open_.empty()) keep(open_index_, open_.take_parts());
    open_index_ = index;
}

void IntervalHistograms::keep(std::size_t index, HdrHistogram::Parts parts) {
    if (parts.total == 0) return;
    if (kept_.empty() || kept_.back().first < index) {
        kept_.emplace_back(index, std::move(parts));
        return;
    }
    auto it = std::lower_bound(kept_.begin(), kept_.end(), index, [](const Kept& k, std::size_t i) { return k.first < i; });
    if (it != kept_.end() && it->first == index) add_parts(it->second, parts);
    else kept_.emplace(it, index, std::move(parts));
}

void IntervalHistograms::merge(const IntervalHistograms& other) {
    if (!other.enabled()) return;
    if (!enabled()) {
        interval_ns_ = other.interval_ns_;
        highest_ = other.highest_;
        open_ = HdrHistogram(highest_);
    }
    move_to(open_index_);
    for (const auto& [index, parts] : other.kept_) keep(index, parts);
    if (!other.open_.empty()) keep(other.open_index_, other.open_.parts());
}

std::size_t IntervalHistograms::size() const noexcept {
    const std::size_t open = open_.empty() ? 0 : open_index_ + 1;
    return std::max(open, kept_.empty() ? 0 : kept_.back().first + 1);
}

HdrHistogram::Parts IntervalHistograms::interval(std::size_t i) const {
    HdrHistogram::Parts out = HdrHistogram(highest_).parts();
    auto it = std::lower_bound(kept_.begin(), kept_.end(), i, [](const Kept& k, std::size_t x) { return k.first < x; });
    if (it != kept_.end() && it->first == i) out = it->second;
    if (i == open_index_ && !open_.empty()) add_parts(out, open_.parts());
    return out;
}

std::size_t IntervalHistograms::memory_bytes() const noexcept {
    std::size_t bytes = open_.memory_bytes() + kept_.capacity() * sizeof(Kept);
    for (const auto& k : kept_) bytes += k.second.slots.capacity() * sizeof(k.second.slots[0]);
    return bytes;
}

}  // namespace stand::load
