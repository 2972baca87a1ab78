// The load generator's HDR-style histogram: equivalence ranges, percentiles
// against a sorted reference, merge == union.
#include "load/hdr_histogram.hpp"
#include "load/hdr_json.hpp"

#include <boost/json.hpp>

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using stand::load::HdrHistogram;

namespace {

// Nearest rank over a sorted vector: the value with ceil(p/100 * n) values at or below it.
std::uint64_t reference_percentile(const std::vector<std::uint64_t>& sorted, double p) {
    if (p <= 0) return sorted.front();
    auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    rank = std::clamp<std::size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

void check_percentiles(const HdrHistogram& h, std::vector<std::uint64_t> values) {
    std::sort(values.begin(), values.end());
    for (double p : {0.0, 0.1, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.99, 100.0}) {
        const std::uint64_t want = reference_percentile(values, p);
        const std::uint64_t got = h.value_at_percentile(p);
        INFO("p" << p << " want " << want << " got " << got);
        // Same slot, and within the precision bound of 3 significant digits.
        CHECK(h.equivalent(got, want));
        CHECK(got >= want);
        CHECK(static_cast<double>(got - want) <= static_cast<double>(want) / 1000.0 + 1e-9);
    }
}

}  // namespace

TEST_CASE("load histogram: layout for 3 significant digits") {
    HdrHistogram h(3'600'000'000ULL, 3);
    // 2048 sub-buckets: [0, 2048) at unit resolution, then each bucket doubles the step.
    CHECK(h.size_of_equivalent_range(1) == 1);
    CHECK(h.size_of_equivalent_range(2047) == 1);
    CHECK(h.size_of_equivalent_range(2048) == 2);
    CHECK(h.size_of_equivalent_range(2500) == 2);
    CHECK(h.size_of_equivalent_range(8191) == 4);
    CHECK(h.size_of_equivalent_range(8192) == 8);
    CHECK(h.size_of_equivalent_range(10000) == 8);
    CHECK(h.lowest_equivalent(10007) == 10000);
    CHECK(h.lowest_equivalent(10009) == 10008);
    CHECK(h.highest_equivalent(8180) == 8183);
    CHECK(h.highest_equivalent(8191) == 8191);
    CHECK(h.highest_equivalent(8193) == 8199);
    CHECK(h.highest_equivalent(9995) == 9999);
    CHECK(h.highest_equivalent(10007) == 10007);
    CHECK(h.highest_equivalent(10008) == 10015);
    CHECK(h.median_equivalent(4) == 4);
    CHECK(h.median_equivalent(5) == 5);
    CHECK(h.median_equivalent(4000) == 4001);
    CHECK(h.median_equivalent(8000) == 8002);
    CHECK(h.median_equivalent(10007) == 10004);
    CHECK(h.next_non_equivalent(10007) == 10008);
    // 3.6e9 / 2048 needs 21 more doublings: (22 + 1) * 1024 slots, about 180 KiB.
    CHECK(h.slot_count() == 23 * 1024);
    // The slots are made on the first value: an unused histogram costs none.
    CHECK(h.memory_bytes() == 0);
    CHECK(h.count_at_or_below(1000) == 0);
    CHECK(h.value_at_percentile(99) == 0);
    HdrHistogram merged;
    merged.merge(h);
    CHECK(merged.memory_bytes() == 0);
    h.record(1000);
    CHECK(h.memory_bytes() == 23 * 1024 * sizeof(std::uint64_t));
    merged.merge(h);
    CHECK(merged.memory_bytes() == h.memory_bytes());
    CHECK(merged.count_at_or_below(1000) == 1);
}

TEST_CASE("load histogram: every range is contiguous and within the precision bound") {
    HdrHistogram h(1ULL << 40, 3);
    std::uint64_t v = 0;
    std::uint64_t ranges = 0;
    while (v < (1ULL << 40)) {
        const std::uint64_t low = h.lowest_equivalent(v);
        const std::uint64_t high = h.highest_equivalent(v);
        REQUIRE(low == v);  // ranges tile the line without gaps
        REQUIRE(high >= low);
        REQUIRE(h.equivalent(low, high));
        REQUIRE_FALSE(h.equivalent(high, high + 1));
        // The width of a range is at most 1/1024 of its values (3 digits: < 1/1000).
        if (low > 0) REQUIRE(static_cast<double>(high - low + 1) <= static_cast<double>(low) / 1024.0 + 1.0);
        v = high + 1;
        ++ranges;
    }
    CHECK(ranges > 20000);
}

TEST_CASE("load histogram: lowest > 1 and other digit counts") {
    HdrHistogram h(1'000'000'000, 2, 1000);  // e.g. ns with µs resolution
    CHECK(h.size_of_equivalent_range(1000) == 512);  // unit magnitude 9 (512), 256 sub-buckets
    CHECK(h.equivalent(0, 511));
    h.record(1'000'000);
    CHECK(h.equivalent(h.value_at_percentile(50), 1'000'000));
    CHECK_THROWS(HdrHistogram(100, 0));
    CHECK_THROWS(HdrHistogram(100, 6));
    CHECK_THROWS(HdrHistogram(1, 3));
}

TEST_CASE("load histogram: exact stats and clamping") {
    HdrHistogram h(1'000'000, 3);
    CHECK(h.empty());
    CHECK(h.value_at_percentile(50) == 0);
    CHECK(h.min() == 0);
    CHECK(h.mean() == 0);
    for (std::uint64_t v : {5, 10, 15, 20}) h.record(v);
    CHECK(h.count() == 4);
    CHECK(h.min() == 5);
    CHECK(h.max() == 20);
    CHECK(h.mean() == doctest::Approx(12.5));
    CHECK(h.stddev() == doctest::Approx(std::sqrt(31.25)));
    CHECK(h.value_at_percentile(0) == 5);
    CHECK(h.value_at_percentile(25) == 5);
    CHECK(h.value_at_percentile(26) == 10);
    CHECK(h.value_at_percentile(50) == 10);
    CHECK(h.value_at_percentile(100) == 20);
    CHECK(h.count_at_or_below(10) == 2);
    h.record_n(7, 0);  // nothing
    CHECK(h.count() == 4);
    h.record(5'000'000);  // above the trackable range: kept as the highest value
    CHECK(h.clamped() == 1);
    CHECK(h.max() == 1'000'000);
    CHECK(h.value_at_percentile(100) == 1'000'000);
    h.reset();
    CHECK(h.count() == 0);
    CHECK(h.max() == 0);
}

TEST_CASE("load histogram: percentiles match a sorted reference on random data") {
    std::mt19937_64 rng(12345);
    SUBCASE("uniform over six decades") {
        HdrHistogram h(3'600'000'000ULL, 3);
        std::vector<std::uint64_t> values;
        std::uniform_real_distribution<double> exponent(0.0, 6.0);
        for (int i = 0; i < 100000; ++i) {
            const auto v = static_cast<std::uint64_t>(std::pow(10.0, exponent(rng)));
            values.push_back(v);
            h.record(v);
        }
        check_percentiles(h, values);
        double sum = 0;
        for (auto v : values) sum += static_cast<double>(v);
        CHECK(h.mean() == doctest::Approx(sum / static_cast<double>(values.size())));
        CHECK(h.min() == *std::min_element(values.begin(), values.end()));
        CHECK(h.max() == *std::max_element(values.begin(), values.end()));
    }
    SUBCASE("latency-like: lognormal with a slow tail") {
        HdrHistogram h(3'600'000'000ULL, 3);
        std::vector<std::uint64_t> values;
        std::lognormal_distribution<double> lat(std::log(80.0), 0.5);
        std::uniform_int_distribution<int> slow(0, 999);
        for (int i = 0; i < 50000; ++i) {
            auto v = static_cast<std::uint64_t>(lat(rng));
            if (slow(rng) == 0) v += 500'000;
            values.push_back(v);
            h.record(v);
        }
        check_percentiles(h, values);
    }
    SUBCASE("few values") {
        HdrHistogram h(3'600'000'000ULL, 3);
        std::vector<std::uint64_t> values{123456789, 3, 3, 70000};
        for (auto v : values) h.record(v);
        check_percentiles(h, values);
    }
}

TEST_CASE("load histogram: merge equals the union") {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<std::uint64_t> dist(0, 10'000'000);
    HdrHistogram a(3'600'000'000ULL), b(3'600'000'000ULL), all(3'600'000'000ULL);
    std::vector<std::uint64_t> values;
    for (int i = 0; i < 20000; ++i) {
        const auto v = dist(rng);
        values.push_back(v);
        ((i % 3 == 0) ? a : b).record(v);
        all.record(v);
    }
    HdrHistogram merged(3'600'000'000ULL);
    merged.merge(a);
    merged.merge(b);
    merged.merge(HdrHistogram(3'600'000'000ULL));  // an empty one changes nothing
    CHECK(merged.count() == all.count());
    CHECK(merged.min() == all.min());
    CHECK(merged.max() == all.max());
    CHECK(merged.mean() == doctest::Approx(all.mean()));
    bool same = true;
    std::vector<std::uint64_t> slots_merged, slots_all;
    merged.for_each_bucket([&](std::uint64_t low, std::uint64_t, std::uint64_t n) {
        slots_merged.push_back(low);
        slots_merged.push_back(n);
    });
    all.for_each_bucket([&](std::uint64_t low, std::uint64_t, std::uint64_t n) {
        slots_all.push_back(low);
        slots_all.push_back(n);
    });
    same = slots_merged == slots_all;
    CHECK(same);
    for (double p : {50.0, 90.0, 99.0, 99.9})
        CHECK(merged.value_at_percentile(p) == all.value_at_percentile(p));
    check_percentiles(merged, values);
}

TEST_CASE("load histogram: merge across different layouts stays within precision") {
    HdrHistogram coarse(1'000'000'000, 2), fine(3'600'000'000ULL, 3);
    std::vector<std::uint64_t> values;
    for (std::uint64_t v = 1; v < 1'000'000; v = v * 3 + 1) {
        coarse.record(v);
        values.push_back(v);
    }
    fine.merge(coarse);
    CHECK(fine.count() == coarse.count());
    CHECK(fine.min() == coarse.min());
    CHECK(fine.max() == coarse.max());
    // Re-recorded at the middle of each 2-digit slot: within 1 % of the original.
    std::sort(values.begin(), values.end());
    for (double p : {10.0, 50.0, 90.0}) {
        const auto want = static_cast<double>(reference_percentile(values, p));
        CHECK(std::abs(static_cast<double>(fine.value_at_percentile(p)) - want) <= want * 0.01 + 1);
    }
}

TEST_CASE("hdr histogram: stand.hdr/1 round-trips without loss, and merging two read back is merging the originals") {
    using namespace stand::load;
    HdrHistogram a(3'600'000'000ULL), b(3'600'000'000ULL), both(3'600'000'000ULL);
    std::uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 20000; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const std::uint64_t v = 50 + x % (i % 2 ? 200'000 : 5'000);
        (i % 3 ? a : b).record(v);
        both.record(v);
    }
    const HdrHistogram a2 = hdr_from_json(boost::json::parse(boost::json::serialize(hdr_to_json(a))));
    CHECK(a2.count() == a.count());
    CHECK(a2.min() == a.min());
    CHECK(a2.max() == a.max());
    CHECK(a2.mean() == a.mean());
    HdrHistogram merged = hdr_from_json(hdr_to_json(a));
    merged.merge(hdr_from_json(hdr_to_json(b)));
    CHECK(merged.count() == both.count());
    CHECK(merged.mean() == both.mean());
    for (double p : {0.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
        CAPTURE(p);
        CHECK(merged.value_at_percentile(p) == both.value_at_percentile(p));
    }
    CHECK(hdr_to_json(merged) == hdr_to_json(both));
}

TEST_CASE("hdr histogram: stand.hdr/1 that does not add up is refused, naming what") {
    using namespace stand::load;
    HdrHistogram h(1'000'000);
    h.record(10);
    h.record(5000);
    const boost::json::object good = hdr_to_json(h);
    auto refused = [&](const char* key, boost::json::value v, const char* why) {
        boost::json::object bad = good;
        bad[key] = std::move(v);
        CAPTURE(key);
        try {
            hdr_from_json(bad);
            FAIL("accepted");
        } catch (const std::invalid_argument& e) {
            CHECK(std::string(e.what()).find(why) != std::string::npos);
        }
    };
    refused("total", 3, "the slots count 2 values, total says 3");
    refused("min", 4000, "min or max is outside");
    refused("sum", "1", "the sum is outside");
    refused("sum", "12x", "sum: expected a decimal string");
    refused("digits", 9, "digits: expected 1..5");
    refused("slots", boost::json::array{boost::json::array{99999999, 1}, boost::json::array{1, 1}}, "beyond the layout");
    refused("slots", boost::json::array{boost::json::array{5, 1}, boost::json::array{1, 1}}, "not in ascending order");
    refused("slots", boost::json::array{"x"}, "[index, count] pairs");
    refused("schema", "stand.hdr/2", "schema: expected");
    refused("extra", 1, "extra: unknown key");
}

namespace {
long resident_kib() {  // this process's RSS, /proc/self/statm's second field
    std::ifstream statm("/proc/self/statm");
    long size = 0, resident = 0;
    statm >> size >> resident;
    return resident * (::sysconf(_SC_PAGESIZE) / 1024);
}
}  // namespace

TEST_CASE("load histogram: a histogram costs the pages its values fall in, copied, merged or reset") {
    // 1 h in µs at 3 digits: 188 KiB of slots each; 40 of them whole would be 7.3 MiB.
    std::vector<stand::load::HdrHistogram> hs;
    hs.reserve(40);
    const long before = resident_kib();
    for (int i = 0; i < 40; ++i) {
        hs.emplace_back();
        hs.back().record(1500 + static_cast<std::uint64_t>(i));
        hs.back().record(250'000);
    }
    stand::load::HdrHistogram merged;
    for (const auto& h : hs) merged.merge(h);
    std::vector<stand::load::HdrHistogram> copies(hs.begin(), hs.begin() + 20);
    const long grown = resident_kib() - before;
    CHECK(hs.front().memory_bytes() == hs.front().slot_count() * 8);
    CHECK(hs.front().memory_bytes() > 180 * 1024);
    MESSAGE("61 histograms of two values each: RSS grew " << grown << " KiB");
    CHECK(grown < 61 * 3 * 4 + 1024);  // two or three pages each (and slack for the vectors)
    CHECK(merged.count() == 80);
    CHECK(merged.value_at_percentile(50) == 1539);  // the 40th of 80: the last below 250 ms
    CHECK(copies[7].count() == 2);
    CHECK(copies[7].min() == 1507);
    copies[7].reset();
    CHECK(copies[7].empty());
    CHECK(copies[7].count_at_or_below(300'000) == 0);
    copies[7].record(3);
    CHECK(copies[7].value_at_percentile(100) == 3);
}

TEST_CASE("load histogram: drain_into moves every value and leaves an empty histogram that records again") {
    HdrHistogram from(3'600'000'000ULL, 2), into(3'600'000'000ULL, 2);
    for (std::uint64_t v : {100, 2000, 50000}) from.record(v);
    into.record(7);
    from.drain_into(into);
    CHECK(from.empty());
    CHECK(from.max() == 0);
    CHECK(from.value_at_percentile(100) == 0);
    CHECK(into.count() == 4);
    CHECK(into.min() == 7);
    CHECK(into.max() == 50000);
    from.record(300);
    CHECK(from.count() == 1);
    CHECK(from.min() == 300);
    CHECK(from.value_at_percentile(50) == 300);  // clamped to [min, max]
    HdrHistogram other_layout(3'600'000'000ULL, 3);
    CHECK_THROWS_AS(from.drain_into(other_layout), std::invalid_argument);
}
