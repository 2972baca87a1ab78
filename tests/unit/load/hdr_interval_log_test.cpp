// HdrHistogram's own formats: the V2 compressed encoding ("HISTFAAA...")
// against strings and layouts the HdrHistogram project's Python library
// made, the per-interval histograms of a run, and the interval log's lines.
// (tests/hdr-log decodes whole `stand load --hdr-log` runs with that library.)
#include "load/hdr_encoding.hpp"
#include "load/hdr_interval_log.hpp"
#include "load/interval_budget.hpp"
#include "load/interval_histograms.hpp"
#include "load/load_result.hpp"

#include <doctest/doctest.h>

#include <openssl/evp.h>
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using stand::load::HdrHistogram;

namespace {

// What a decoder finds in an encoded histogram: the header and the non-empty counts.
struct Decoded {
    std::uint32_t cookie = 0;
    std::uint32_t offset = 0, digits = 0;
    std::uint64_t lowest = 0, highest = 0, ratio_bits = 0;
    std::map<std::size_t, std::uint64_t> counts;
};

std::uint64_t get_be(const std::string& s, std::size_t at, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(s.at(at + static_cast<std::size_t>(i)));
    return v;
}

std::string base64_decoded(const std::string& text) {
    std::string out(text.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
    REQUIRE(n >= 0);
    std::size_t padding = 0;
    while (padding < 2 && text.size() > padding && text[text.size() - 1 - padding] == '=') ++padding;
    out.resize(static_cast<std::size_t>(n) - padding);
    return out;
}

// A decoder written from the V2 description (HdrHistogram's ENCODING docs), for the checks only.
Decoded decode(const std::string& text) {
    const std::string framed = base64_decoded(text);
    REQUIRE(framed.size() > 8);
    CHECK(get_be(framed, 0, 4) == 0x1c849314);
    REQUIRE(get_be(framed, 4, 4) == framed.size() - 8);
    std::string payload(1 << 20, '\0');
    uLongf size = payload.size();
    REQUIRE(uncompress(reinterpret_cast<Bytef*>(payload.data()), &size,
                       reinterpret_cast<const Bytef*>(framed.data() + 8), framed.size() - 8) == Z_OK);
    payload.resize(size);
    REQUIRE(payload.size() >= 40);
    Decoded d;
    d.cookie = static_cast<std::uint32_t>(get_be(payload, 0, 4));
    REQUIRE(get_be(payload, 4, 4) == payload.size() - 40);
    d.offset = static_cast<std::uint32_t>(get_be(payload, 8, 4));
    d.digits = static_cast<std::uint32_t>(get_be(payload, 12, 4));
    d.lowest = get_be(payload, 16, 8);
    d.highest = get_be(payload, 24, 8);
    d.ratio_bits = get_be(payload, 32, 8);
    std::size_t at = 40, index = 0;
    while (at < payload.size()) {
        std::uint64_t raw = 0;
        for (int shift = 0;; shift += 7) {
            const auto byte = static_cast<unsigned char>(payload.at(at++));
            if (shift == 56) {  // the 9th byte: all 8 bits
                raw |= std::uint64_t{byte} << 56;
                break;
            }
            raw |= std::uint64_t{byte & 0x7fu} << shift;
            if ((byte & 0x80) == 0) break;
        }
        const auto value = static_cast<std::int64_t>((raw >> 1) ^ (~(raw & 1) + 1));
        if (value < 0) index += static_cast<std::size_t>(-value);
        else {
            if (value > 0) d.counts[index] = static_cast<std::uint64_t>(value);
            ++index;
        }
    }
    return d;
}

std::map<std::size_t, std::uint64_t> slots_of(const HdrHistogram& h) {
    std::map<std::size_t, std::uint64_t> out;
    for (const auto& [index, n] : h.parts().slots) out[index] = n;
    return out;
}

// The values the known string below holds.
HdrHistogram known_values() {
    HdrHistogram h(3'600'000'000ULL, 3, 1);
    for (std::uint64_t v : {1ULL, 2ULL, 3ULL, 100ULL, 1000ULL, 2047ULL, 2048ULL, 5000ULL, 123456ULL, 1000000ULL,
                            3000000000ULL})
        h.record(v);
    h.record_n(50, 7);
    h.record_n(2049, 300);
    return h;
}

// Made with the HdrHistogram project's Python library (PyPI hdrhistogram
// 0.10.8, CPython 3.11):
//   h = hdrh.histogram.HdrHistogram(1, 3600000000, 3)
//   for v in [1, 2, 3, 100, 1000, 2047, 2048, 5000, 123456, 10**6, 3_000_000_000]: h.record_value(v)
//   h.record_value(50, 7); h.record_value(2049, 300); print(h.encode().decode())
constexpr const char* kPythonEncoded =
    "HISTFAAAAD14nJNpmSzMwMAgywABzFCaEURcm7yEwf4DVICJiSmaL5GplY9ptQDTLZaDwkynvZjWGjA9387IBAA2cwwU";

}  // namespace

TEST_CASE("hdr encoding: the Python library's string decodes to stand's slots for the same values") {
    const Decoded python = decode(kPythonEncoded);
    CHECK(python.cookie == 0x1c849313);
    CHECK(python.digits == 3);
    CHECK(python.lowest == 1);
    CHECK(python.highest == 3'600'000'000ULL);
    const HdrHistogram h = known_values();
    CHECK(python.counts == slots_of(h));
    // What the library decoded it to: (index, count) of the non-empty counts.
    const std::map<std::size_t, std::uint64_t> library{{1, 1},     {2, 1},     {3, 1},     {50, 7},
                                                       {100, 1},   {1000, 1},  {2047, 1},  {2048, 301},
                                                       {3298, 1},  {8073, 1},  {11169, 1}, {22934, 1}};
    CHECK(python.counts == library);
}

TEST_CASE("hdr encoding: stand's string decodes as the Python library's does") {
    const std::string text = stand::load::hdr_v2_compressed_base64(known_values());
    CHECK(text.rfind("HISTFAAA", 0) == 0);
    const Decoded ours = decode(text), python = decode(kPythonEncoded);
    CHECK(ours.cookie == python.cookie);
    CHECK(ours.offset == 0);
    CHECK(ours.digits == python.digits);
    CHECK(ours.lowest == python.lowest);
    CHECK(ours.highest == python.highest);
    CHECK(ours.ratio_bits == 0x3ff0000000000000ULL);  // 1.0
    CHECK(ours.counts == python.counts);
}

TEST_CASE("hdr encoding: zero runs, single zeros, large counts and an empty histogram") {
    HdrHistogram h(3'600'000'000ULL, 3, 1);
    h.record_n(0, 5);
    h.record(2);  // slot 1 empty: a single zero
    h.record_n(4000, std::uint64_t{1} << 40);  // a count of 6 LEB128 bytes
    h.record_n(3'600'000'000ULL, std::uint64_t{1} << 60);  // 9 bytes, the last with 8 bits
    const Decoded d = decode(stand::load::hdr_v2_compressed_base64(h));
    CHECK(d.counts == slots_of(h));
    CHECK(d.counts.size() == 4);
    // A single zero is written as 0, as Java's encoder does: the payload holds it.
    const std::string payload = stand::load::hdr_v2_payload(h);
    CHECK(payload.substr(40, 3) == std::string("\x0a\x00\x02", 3));  // ZigZag: 5, 0 (slot 1), 1 (slot 2)
    const Decoded empty = decode(stand::load::hdr_v2_compressed_base64(HdrHistogram(3'600'000'000ULL, 3, 1)));
    CHECK(empty.counts.empty());
    CHECK(empty.highest == 3'600'000'000ULL);
}

TEST_CASE("hdr encoding: stand's slots are HdrHistogram's counts array for other layouts too") {
    // (lowest, highest, digits) -> the counts array's length and the index of
    // some values, as the Python library computes them (counts_len,
    // get_counts_array_index).
    struct Layout {
        std::uint64_t lowest, highest;
        int digits;
        std::size_t counts_len;
        std::vector<std::pair<std::uint64_t, std::size_t>> indexes;
    };
    const std::vector<Layout> layouts{
        {1, 3'600'000'000ULL, 3, 23552,
         {{0, 0}, {1, 1}, {7, 7}, {999, 999}, {2048, 2048}, {65535, 7167}, {123456789, 18267}, {3600000000, 23220}}},
        {1, 1000, 1, 112, {{0, 0}, {1, 1}, {7, 7}, {999, 111}, {1000, 111}}},
        {1000, 3'600'000'000'000ULL, 2, 3456,
         {{0, 0}, {1, 0}, {7, 0}, {999, 1}, {2048, 4}, {65535, 127}, {123456789, 1515}, {3600000000000, 3409}}},
        {5, 1'000'000'000ULL, 4, 245760,
         {{0, 0}, {1, 0}, {7, 1}, {999, 249}, {2048, 512}, {65535, 16383}, {123456789, 193980}, {1000000000, 243509}}},
        {1, 1ULL << 40, 5, 3276800,
         {{0, 0}, {1, 1}, {7, 7}, {999, 999}, {2048, 2048}, {65535, 65535}, {123456789, 1420774},
          {1099511627776, 3145728}}},
    };
    for (const auto& l : layouts) {
        HdrHistogram h(l.highest, l.digits, l.lowest);
        INFO("lowest " << l.lowest << " highest " << l.highest << " digits " << l.digits);
        CHECK(h.slot_count() == l.counts_len);
        for (const auto& [value, index] : l.indexes) {
            HdrHistogram one(l.highest, l.digits, l.lowest);
            one.record(value);
            INFO("value " << value);
            CHECK(one.parts().slots.at(0).first == index);
        }
    }
}

TEST_CASE("interval histograms: by time since the start, merged interval by interval") {
    stand::load::IntervalHistograms off;
    CHECK_FALSE(off.enabled());
    stand::load::IntervalHistograms a(500'000'000, 3'600'000'000ULL), b(500'000'000, 3'600'000'000ULL);
    a.record(-5, 10);            // before the start: the first interval
    a.record(499'999'999, 20);   // still the first
    a.record(1'600'000'000, 30); // the fourth; the two between stay empty
    b.record(600'000'000, 40);
    b.record(1'700'000'000, 30);  // the slot a has in the fourth, and one above it
    b.record(1'800'000'000, 35);
    off.merge(a);
    off.merge(b);
    CHECK(off.enabled());
    CHECK(off.interval_ns() == 500'000'000);
    REQUIRE(off.size() == 4);
    CHECK(off.interval(0).total == 2);
    CHECK(off.interval(1).total == 1);
    CHECK(off.interval(1).max == 40);
    CHECK(off.interval(2).total == 0);
    CHECK(off.interval(3).max == 35);
    CHECK(off.interval(9).total == 0);  // beyond the last: empty
    const HdrHistogram fourth = HdrHistogram::from_parts(off.interval(3));  // consistent: slots, min, max, sum
    CHECK(fourth.count() == 3);
    CHECK(fourth.count_at_or_below(30) == 2);
    CHECK(fourth.min() == 30);
}

TEST_CASE("interval histograms: a value of an interval the thread had left is added to it") {
    stand::load::IntervalHistograms a(1'000'000, 3'600'000'000ULL);
    a.record(5'000'000, 100);
    a.record(3'500'000, 200);  // a completion time out of order
    a.record(5'100'000, 300);
    a.record(3'000'000, 400);
    CHECK(a.size() == 6);
    CHECK(a.interval(3).total == 2);
    CHECK(a.interval(3).min == 200);
    CHECK(a.interval(3).max == 400);
    CHECK(a.interval(5).total == 2);
    CHECK(HdrHistogram::from_parts(a.interval(5)).value_at_percentile(100) == 300);
}

TEST_CASE("interval histograms: one full histogram per thread, the intervals it left as their slots only") {
    // The case: 1 ms intervals for 20 s, a value in each. Each full
    // histogram would be 188 KiB of slots, a few KiB of them resident.
    stand::load::IntervalHistograms a(1'000'000, 3'600'000'000ULL);
    for (std::int64_t i = 0; i < 20'000; ++i) a.record(i * 1'000'000 + 500'000, 1000 + static_cast<std::uint64_t>(i % 50));
    CHECK(a.size() == 20'000);
    CHECK(a.interval(19'999).total == 1);
    CHECK(a.memory_bytes() < 20'000 * 300);  // a few MB, not 20,000 x 188 KiB
}

TEST_CASE("interval budget: the window's and the drain's intervals for each thread, and the interval that fits") {
    using namespace std::chrono_literals;
    using stand::load::interval_budget_refusal;
    CHECK(stand::load::interval_histograms_kept(1ms, 90s, 10s, 8) == 800'008);
    CHECK(stand::load::interval_histograms_kept(1ms, 20s, 10s, 2) == 60'002);  // the 257 MB run: kept now
    CHECK(interval_budget_refusal(1ms, 20s, 10s, 2).empty());
    const std::string why = interval_budget_refusal(1ms, 90s, 10s, 8);
    CHECK(why.find("keeps up to 800008 interval histograms (100001 intervals of the ") != std::string::npos);
    CHECK(why.find("for each of 8 threads); at most 500000: take --hdr-log-interval 2ms or longer") != std::string::npos);
    CHECK(interval_budget_refusal(2ms, 90s, 10s, 8).empty());
    CHECK(stand::load::interval_within_budget(1s, 60s, 10s, 256) == 1s);
    const auto day = stand::load::interval_within_budget(1s, 86'400s, 10s, 256);  // a scenario's longest load step
    CHECK(day == 45s);
    CHECK(stand::load::interval_histograms_kept(day, 86'400s, 10s, 256) <= stand::load::kMaxIntervalHistograms);
    CHECK(stand::load::interval_histograms_kept(day - 1s, 86'400s, 10s, 256) > stand::load::kMaxIntervalHistograms);
}

TEST_CASE("hdr interval log: HistogramLogWriter's header, one line per interval to the end of the drain") {
    stand::load::LoadResult r;
    r.latency_intervals = stand::load::IntervalHistograms(1'000'000'000, 3'600'000'000ULL);
    r.latency_intervals.record(100, 1500);
    r.latency_intervals.record(2'100'000'000, 2500);
    r.window_start_unix_ns = 1'765'000'000'250'000'000LL;
    r.elapsed_s = 3.25;  // a drain past the third second: four intervals, the last 0.25 s
    std::istringstream log(stand::load::hdr_interval_log(r));
    std::vector<std::string> lines;
    for (std::string line; std::getline(log, line);) lines.push_back(line);
    REQUIRE(lines.size() == 9);
    CHECK(lines[0].rfind("#[Logged with stand ", 0) == 0);
    CHECK(lines[1] == "#[Histogram log format version 1.3]");
    CHECK(lines[2].rfind("#[StartTime: 1765000000.250 (seconds since epoch), ", 0) == 0);
    CHECK(lines[3] == "#[BaseTime: 1765000000.250 (seconds since epoch)]");
    CHECK(lines[4] == "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"");
    CHECK(lines[5].rfind("0.000,1.000,1.500,HISTFAAA", 0) == 0);
    CHECK(lines[6].rfind("1.000,1.000,0.000,HISTFAAA", 0) == 0);  // nothing completed: an empty histogram
    CHECK(lines[7].rfind("2.000,1.000,2.500,HISTFAAA", 0) == 0);
    CHECK(lines[8].rfind("3.000,0.250,0.000,HISTFAAA", 0) == 0);
    const Decoded third = decode(lines[7].substr(lines[7].rfind(',') + 1));
    CHECK(third.counts == std::map<std::size_t, std::uint64_t>{{2048 + (2500 - 2048) / 2, 1}});
}
