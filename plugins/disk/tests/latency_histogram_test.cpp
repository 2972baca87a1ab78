// The disk probe's latency histogram: its buckets, their listing, its
// percentiles. The plugin through a plugin worker (tmpfs refusal, a short
// real run in /var/tmp): tests/unit/programs/disk_probe_test.cpp.
#include "latency_histogram.hpp"

#include <doctest/doctest.h>

#include <cstdint>

using stand_disk::LatencyHistogram;

TEST_CASE("disk probe: histogram buckets are exact below 2048 ns and at most 1/1024 of their values wide above") {
    for (std::uint64_t v : {0ull, 1ull, 2047ull, 2048ull, 2049ull, 4097ull, 65535ull, 1'000'000ull, 123'456'789'012ull}) {
        CAPTURE(v);
        auto i = LatencyHistogram::index_of(v);
        REQUIRE(i < LatencyHistogram::kBuckets);
        auto lo = LatencyHistogram::lowest_of(i);
        auto width = LatencyHistogram::lowest_of(i + 1 < LatencyHistogram::kBuckets ? i + 1 : i) - lo;
        CHECK(lo <= v);
        if (v < 2048) CHECK(lo == v);
        CHECK(static_cast<double>(width) <= std::max(1.0, static_cast<double>(lo) / 1024.0));
        CHECK(LatencyHistogram::middle_of(i) >= lo);
        CHECK(LatencyHistogram::middle_of(i) - lo <= width / 2);
    }
    CHECK(LatencyHistogram::index_of(UINT64_MAX) == LatencyHistogram::kBuckets - 1);
    bool ascending = true;
    for (unsigned i = 1; i < LatencyHistogram::kBuckets; ++i)
        ascending = ascending && LatencyHistogram::lowest_of(i) > LatencyHistogram::lowest_of(i - 1) &&
                    LatencyHistogram::index_of(LatencyHistogram::lowest_of(i)) == i;
    CHECK(ascending);
}

TEST_CASE("disk probe: the histogram lists its non-empty buckets ascending as (middle, count)") {
    LatencyHistogram h;
    for (std::uint64_t v : {100'000ull, 1500ull, 100'010ull, 1500ull, 7'000'000ull}) h.record(v);
    const auto b = h.buckets();
    REQUIRE(b.size() == 3);
    CHECK(b[0] == std::pair<std::uint64_t, std::uint64_t>{1500, 2});
    CHECK(b[1].second == 2);  // 100 000 and 100 010 share a 64 ns bucket
    CHECK(static_cast<double>(b[1].first) == doctest::Approx(100'005.0).epsilon(0.001));
    CHECK(b[2].second == 1);
    CHECK(static_cast<double>(b[2].first) == doctest::Approx(7'000'000.0).epsilon(0.001));
    CHECK(LatencyHistogram().buckets().empty());
}

TEST_CASE("disk probe: percentiles of a uniform 1..10000 us spread") {
    LatencyHistogram a, b;
    for (std::uint64_t us = 1; us <= 10000; ++us) (us % 2 ? a : b).record(us * 1000);
    a.add(b);
    CHECK(a.count() == 10000);
    CHECK(a.min() == 1000);
    CHECK(a.max() == 10'000'000);
    CHECK(a.mean() == doctest::Approx(5'000'500.0));
    CHECK(static_cast<double>(a.percentile(50)) == doctest::Approx(5'000'000.0).epsilon(0.01));
    CHECK(static_cast<double>(a.percentile(99)) == doctest::Approx(9'900'000.0).epsilon(0.01));
    CHECK(static_cast<double>(a.percentile(99.9)) == doctest::Approx(9'990'000.0).epsilon(0.01));
    CHECK(a.percentile(100) == 10'000'000);
    CHECK(LatencyHistogram().percentile(50) == 0);
}
