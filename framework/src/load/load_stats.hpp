// What one load thread counts while it runs (no sharing, no locks), and the
// merge of all threads into a LoadResult at the end.
#pragma once

#include "load/hdr_histogram.hpp"
#include "load/interval_histograms.hpp"
#include "load/load_result.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace stand::load {

// Histograms record µs up to an hour (about 180 KiB each at 3 digits).
inline constexpr std::uint64_t kHighestUs = 3'600'000'000ULL;

struct ThreadStats {
    // interval_ns: the latency histogram per interval too (0: not).
    ThreadStats(std::size_t links, std::size_t seconds_hint, std::uint64_t slow_us, bool open_model,
                std::int64_t interval_ns = 0);

    // A whole response arrived. Times in ns; `since_start_ns`: when, from the window start.
    void record_response(int status, std::int64_t latency_ns, std::int64_t service_ns, std::uint64_t body_bytes,
                         std::int64_t since_start_ns);
    // A request ended without a usable response; `reason` is static text
    // (error_kind.hpp).
    void record_error(ErrorKind kind, const char* reason, std::size_t second);
    SecondStats& second(std::size_t index) {
        if (index >= seconds.size()) seconds.resize(index + 1);
        return seconds[index];
    }

    // Per status class, created on first use; `service` only in the open
    // model (in the closed model a request starts when it is meant to, so
    // service time == latency).
    std::array<std::unique_ptr<HdrHistogram>, kStatusClasses> latency;
    std::array<std::unique_ptr<HdrHistogram>, kStatusClasses> service;
    // Every response's latency since the last WorkerProgress::publish(), at
    // two digits, for the live figures (LoadProgress::latency); not merged.
    HdrHistogram recent_latency{kHighestUs, 2};
    IntervalHistograms latency_intervals;  // every class, by completion time
    HdrHistogram send_lag{kHighestUs};
    HdrHistogram connect{kHighestUs};
    std::array<std::uint64_t, 1000> status{};  // by code; >= 999 counted at 999
    struct ReasonCount {
        ErrorKind kind;
        const char* reason;
        std::uint64_t count;
    };
    std::vector<ReasonCount> reasons;  // the few distinct reasons seen, in order of first sight
    std::vector<SecondStats> seconds;
    std::vector<std::uint64_t> per_link;
    BodyStats body;
    std::uint64_t slow_us;
    bool open_model;

    std::uint64_t offered = 0;
    std::uint64_t sent = 0;
    std::uint64_t completed = 0;
    std::uint64_t error_total = 0;
    std::uint64_t late = 0;
    std::uint64_t late_with_free_connection = 0;  // of late: the generator itself was late, no connection lacked
    std::uint64_t max_backlog = 0;
    std::uint64_t unsent = 0;
    std::uint64_t stale_retries = 0;
    std::uint64_t connections_opened = 0;
    std::uint64_t tls_handshakes = 0;
    std::uint64_t tls_resumed = 0;
    std::uint64_t bytes_received = 0;
};

inline std::uint64_t ns_to_us(std::int64_t ns) noexcept {
    return ns <= 0 ? 0 : static_cast<std::uint64_t>((ns + 500) / 1000);
}

// Adds one thread's counts into `out` (histograms per class name).
void merge_stats(LoadResult& out, const ThreadStats& stats, bool open_model);
// After all merges: the "all" histograms, slow seconds, totals.
void finish_result(LoadResult& out);

}  // namespace stand::load
