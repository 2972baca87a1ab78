// What a load run measured. Latencies are kept as whole histograms (µs) so
// that the scenario engine can merge runs; to_json() summarises them.
#pragma once

#include "load/error_kind.hpp"
#include "load/hdr_histogram.hpp"
#include "load/interval_histograms.hpp"
#include "load/load_spec.hpp"
#include "quic/udp_io_summary.hpp"

#include <boost/json/object.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stand::load {

// Errors by kind, and by kind and reason: every error has one reason
// (error_kind.hpp), so the reasons of a kind add up to its count.
struct ErrorCounts {
    std::array<std::uint64_t, kErrorKinds> by_kind{};
    std::array<std::map<std::string, std::uint64_t>, kErrorKinds> by_reason;
    std::uint64_t operator[](ErrorKind k) const noexcept { return by_kind[static_cast<std::size_t>(k)]; }
    void add(ErrorKind kind, const std::string& reason, std::uint64_t n) {
        by_kind[static_cast<std::size_t>(kind)] += n;
        by_reason[static_cast<std::size_t>(kind)][reason] += n;
    }
};

// Status classes: "1xx" (a final 101), "2xx" .. "5xx", "other".
inline constexpr std::size_t kStatusClasses = 6;
inline std::size_t status_class(int status) noexcept {
    return (status >= 100 && status < 600) ? static_cast<std::size_t>(status / 100 - 1) : 5;
}
const char* status_class_name(std::size_t cls) noexcept;

// One second of the run (by completion time, from the start of the window).
struct SecondStats {
    std::uint64_t completed = 0;  // responses, any status
    std::uint64_t errors = 0;     // transport errors
    std::uint64_t slow = 0;       // responses slower than the slow threshold
    // Open model: the most requests in flight and the largest backlog of
    // due-but-unsent requests seen in the second (summed over threads), so
    // a run that falls behind shows its queue growing.
    std::uint64_t in_flight_max = 0;
    std::uint64_t backlog_max = 0;
};

struct BodyStats {
    std::uint64_t count = 0;
    std::uint64_t total = 0;
    std::uint64_t min = UINT64_MAX;
    std::uint64_t max = 0;
    void add(std::uint64_t bytes) noexcept {
        ++count;
        total += bytes;
        if (bytes < min) min = bytes;
        if (bytes > max) max = bytes;
    }
    void merge(const BodyStats& o) noexcept {
        count += o.count;
        total += o.total;
        if (o.min < min) min = o.min;
        if (o.max > max) max = o.max;
    }
};

// Statuses, errors and timings of the --warmup-once pass.
struct WarmupResult {
    std::uint64_t requests = 0;
    std::uint64_t completed = 0;
    double elapsed_s = 0;
    std::map<int, std::uint64_t> status_counts;
    ErrorCounts errors;
};

struct CpuUsage {
    double user_s = 0;         // getrusage(RUSAGE_SELF) over the run
    double system_s = 0;
    double threads_s = 0;      // CPU time of the load threads (their own clocks)
    double us_per_request = 0; // (user + system) / completed requests
    double cores_used = 0;     // (user + system) / elapsed
    double percent_of_threads = 0;  // threads_s / (elapsed * threads) * 100
    // The load threads' time runnable but without a CPU (another process had
    // it), as percent_of_threads: running + waiting near 100 % is a generator
    // at its limit whether it ran or waited.
    double percent_waiting = 0;
};

// Results list URLs and per-link counts for up to this many links; beyond,
// the count and a summary (min, max, links never requested).
inline constexpr std::size_t kListedLinks = 1000;

struct LoadResult {
    // The run as asked.
    Model model = Model::closed;
    double rate = 0;
    unsigned threads = 0;
    unsigned connections = 0;
    double duration_s = 0;
    bool keepalive = true;
    bool tls = false;
    std::size_t links = 0;
    // The first kListedLinks links' URLs, in order (a storm's 100,000 would
    // outweigh the rest of the result).
    std::vector<std::string> urls;
    std::string xff_pattern;        // empty: none
    std::string bind_prefix;        // empty: none
    double late_threshold_ms = 0;
    double slow_threshold_ms = 0;
    double timeout_s = 0;
    std::string protocol = "http/1.1";  // or "h3"
    unsigned streams_per_connection = 1;
    std::string congestion_control;     // h3: the QUIC client's algorithm
    std::optional<quic::UdpIoSummary> udp;  // h3: the UDP paths the connections used
    std::string engine;       // "io_uring", "asio" (HTTP/1.1) or "quic" (h3)
    std::string engine_note;  // why not io_uring, when automatic chose Asio

    // Time.
    double window_s = 0;   // how long requests were started (duration, unless stopped early)
    double elapsed_s = 0;  // window plus the drain of the requests still in flight
    bool interrupted = false;

    // Requests. offered = scheduled in the window (open model; = sent otherwise);
    // sent = started; completed = a whole response arrived (any status);
    // errors = transport errors; unsent = offered but never started (the
    // backlog at the end); late = started more than late_threshold after the
    // intended time; max_queue = sum over threads of each thread's largest
    // backlog of due-but-unsent requests (exact with one thread).
    std::uint64_t offered = 0;
    std::uint64_t sent = 0;
    std::uint64_t completed = 0;
    std::uint64_t errors = 0;
    std::uint64_t unsent = 0;
    std::uint64_t late = 0;
    // Of late: started late although a connection was free (the generator
    // did not run in time, not the system), the rest waited for a connection.
    std::uint64_t late_with_free_connection = 0;
    std::uint64_t max_queue = 0;
    // A kept-alive connection that the server had closed is retried once on a
    // new connection without counting an error.
    std::uint64_t stale_retries = 0;
    std::uint64_t connections_opened = 0;
    std::uint64_t tls_handshakes = 0;
    std::uint64_t tls_resumed = 0;
    std::uint64_t bytes_received = 0;  // everything read, headers included
    BodyStats body;

    std::map<int, std::uint64_t> status_counts;
    ErrorCounts error_counts;
    std::vector<std::uint64_t> requests_per_link;  // started, by link index (every link; JSON: up to kListedLinks)

    // Latency in µs. `latency` is from the intended send time (open model:
    // coordinated-omission corrected; closed model: = service time);
    // `service` is from the actual start of the request (connect included
    // when it needed a new connection) to its last byte. Per status class,
    // plus "all" (every response).
    std::map<std::string, HdrHistogram> latency;
    std::map<std::string, HdrHistogram> service;
    // With LoadSpec::histogram_interval: the "all" latency histogram of each
    // interval, by completion time from window_start_unix_ns (the drain's
    // responses in the intervals after the window), for the --hdr-log.
    IntervalHistograms latency_intervals;
    std::int64_t window_start_unix_ns = 0;  // when the window opened, on the wall clock
    HdrHistogram send_lag{3'600'000'000ULL};  // open model: actual start - intended (µs)
    HdrHistogram connect{3'600'000'000ULL};   // TCP connect (+ TLS handshake) times (µs)

    std::vector<SecondStats> per_second;
    std::uint64_t slow_seconds = 0;  // seconds with at least one slow response

    CpuUsage cpu;
    bool generator_saturated = false;
    std::vector<std::string> warnings;

    bool has_warmup = false;
    WarmupResult warmup;

    double requests_per_s() const noexcept { return elapsed_s > 0 ? static_cast<double>(completed) / elapsed_s : 0; }
    double sent_per_s() const noexcept { return window_s > 0 ? static_cast<double>(sent) / window_s : 0; }
    // Answers with a 2xx status.
    std::uint64_t ok_count() const noexcept {
        std::uint64_t ok = 0;
        for (const auto& [status, count] : status_counts)
            if (status >= 200 && status < 300) ok += count;
        return ok;
    }
    // Of the requests that got an answer or a transport error, those without a 2xx answer, in %.
    double error_pct() const noexcept {
        const double attempts = static_cast<double>(completed + errors);
        return attempts > 0 ? 100.0 * (attempts - static_cast<double>(ok_count())) / attempts : 0;
    }
    std::uint64_t error_count(ErrorKind k) const noexcept { return error_counts[k]; }
    // Schema "stand.load/1": the fields above, histograms summarised by
    // summarize_us (count, min, mean, stdev, p50 .. p99_99, max in µs).
    boost::json::object to_json() const;
};

// The summary of one histogram in to_json() (µs).
boost::json::object summarize_us(const HdrHistogram& h);

}  // namespace stand::load
