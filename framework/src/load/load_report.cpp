#include "load/load_report.hpp"

#include "load/load_stats.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace stand::load {
namespace {

std::string fmt(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

void latency_table(std::ostringstream& out, const char* title, const std::map<std::string, HdrHistogram>& map) {
    if (map.empty()) return;
    out << "  " << title << "\n";
    out << "    " << pad("", 5);
    for (const char* h : {"count", "p50", "p90", "p99", "p99.9", "max", "mean", "stdev"}) out << pad(h, 10);
    out << "\n";
    auto row = [&](const std::string& name, const HdrHistogram& h) {
        out << "    " << name << pad("", name.size() < 5 ? 5 - name.size() : 0);
        out << pad(std::to_string(h.count()), 10);
        for (double p : {50.0, 90.0, 99.0, 99.9})
            out << pad(format_us(static_cast<double>(h.value_at_percentile(p))), 10);
        out << pad(format_us(static_cast<double>(h.max())), 10) << pad(format_us(h.mean()), 10)
            << pad(format_us(h.stddev()), 10) << "\n";
    };
    if (auto it = map.find("all"); it != map.end()) row("all", it->second);
    if (map.size() <= 2) return;  // one status class: the same as "all"
    for (const auto& [name, h] : map)
        if (name != "all") row(name, h);
}

}  // namespace

std::string format_us(double us) {
    if (us < 1000) return fmt("%.0fus", us);
    if (us < 1e6) return fmt("%.2fms", us / 1e3);
    return fmt("%.2fs", us / 1e6);
}

std::string format_bytes(double bytes) {
    if (bytes < 1024) return fmt("%.0fB", bytes);
    if (bytes < 1024.0 * 1024) return fmt("%.2fKB", bytes / 1024);
    if (bytes < 1024.0 * 1024 * 1024) return fmt("%.2fMB", bytes / 1024 / 1024);
    return fmt("%.2fGB", bytes / 1024 / 1024 / 1024);
}

namespace {

// " parse 3 timeout 1": the kinds that occurred, each after `separator`.
void error_kinds(std::ostringstream& out, const ErrorCounts& counts, const char* separator) {
    for (std::size_t i = 0; i < kErrorKinds; ++i)
        if (counts.by_kind[i] != 0)
            out << separator << error_kind_name(static_cast<ErrorKind>(i)) << " " << counts.by_kind[i];
}

// One line per reason: "    3 parse: chunk size too large".
void error_reasons(std::ostringstream& out, const ErrorCounts& counts) {
    for (std::size_t i = 0; i < kErrorKinds; ++i)
        for (const auto& [reason, n] : counts.by_reason[i])
            out << "    " << n << " " << error_kind_name(static_cast<ErrorKind>(i)) << ": " << reason << "\n";
}

// The pieces of format_report, in the order they are printed.

void run_description(std::ostringstream& out, const LoadResult& r) {
    const bool open = r.model == Model::open;
    out << "Running " << fmt("%g", r.duration_s) << "s load @ " << (r.urls.empty() ? "" : r.urls.front());
    if (r.links > 1) out << " (+" << r.links - 1 << " more links, round robin)";
    out << "\n  " << r.threads << " threads and " << r.connections << " connections, "
        << (open ? "open model at " + fmt("%g", r.rate) + " req/s" : std::string("closed model")) << ", keep-alive "
        << (r.keepalive ? "on" : "off") << (r.tls ? ", TLS" : "") << "\n";
    if (r.protocol == "h3") {
        out << "  HTTP/3 over QUIC, " << r.streams_per_connection << " stream(s) per connection, congestion control "
            << r.congestion_control << "\n";
        if (r.udp)
            for (const auto& line : r.udp->describe()) out << "  " << line << "\n";
    }
    if (!r.engine.empty() && r.protocol != "h3") {
        out << "  engine: " << r.engine;
        if (!r.engine_note.empty()) out << " (" << r.engine_note << ")";
        out << "\n";
    }
    if (!r.xff_pattern.empty()) out << "  X-Forwarded-For: " << r.xff_pattern << "\n";
    if (!r.bind_prefix.empty())
        out << "  source addresses: " << r.bind_prefix << (r.bind_prefix.find('.') == std::string::npos ? ".x.y.z\n" : ".x.y\n");
    if (r.has_warmup) {
        out << "  Warm-up: " << r.warmup.requests << " requests in " << fmt("%.2f", r.warmup.elapsed_s) << "s, status";
        for (const auto& [code, n] : r.warmup.status_counts) out << " " << code << ":" << n;
        error_kinds(out, r.warmup.errors, ", ");
        out << "\n";
        error_reasons(out, r.warmup.errors);
    }
}

// Mean, stdev, min and max of the completed responses per whole second (the last one is partial).
void per_second_spread(std::ostringstream& out, const LoadResult& r) {
    if (r.per_second.empty() || r.completed == 0) return;
    const std::size_t n = std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(r.window_s)));
    double sum = 0, sq = 0, lo = 1e300, hi = 0;
    std::size_t used = 0;
    for (std::size_t i = 0; i < r.per_second.size() && i < n; ++i, ++used) {
        const double v = static_cast<double>(r.per_second[i].completed);
        sum += v;
        sq += v * v;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (used == 0) return;
    const double mean = sum / static_cast<double>(used);
    const double sd = std::sqrt(std::max(0.0, sq / static_cast<double>(used) - mean * mean));
    out << "  Req/sec by second  mean " << fmt("%.0f", mean) << ", stdev " << fmt("%.0f", sd) << ", min "
        << fmt("%.0f", lo) << ", max " << fmt("%.0f", hi) << "\n";
}

void latencies(std::ostringstream& out, const LoadResult& r) {
    const bool open = r.model == Model::open;
    latency_table(out, open ? "Latency (from the intended send time, corrected)" : "Latency", r.latency);
    if (open) {
        latency_table(out, "Service time (from the actual send)", r.service);
        out << "  Send lag  p50 " << format_us(static_cast<double>(r.send_lag.value_at_percentile(50))) << ", p99 "
            << format_us(static_cast<double>(r.send_lag.value_at_percentile(99))) << ", max "
            << format_us(static_cast<double>(r.send_lag.max())) << "\n";
    }
    per_second_spread(out, r);
}

void request_counts(std::ostringstream& out, const LoadResult& r) {
    const bool open = r.model == Model::open;
    out << "  " << r.completed << " responses in " << fmt("%.2f", r.elapsed_s) << "s, "
        << format_bytes(static_cast<double>(r.bytes_received)) << " read (bodies "
        << format_bytes(static_cast<double>(r.body.total)) << ", mean "
        << format_bytes(r.body.count ? static_cast<double>(r.body.total) / static_cast<double>(r.body.count) : 0)
        << ")\n";
    out << "  Requests: ";
    if (open) out << "offered " << r.offered << ", ";
    out << "sent " << r.sent << ", completed " << r.completed << ", errors " << r.errors;
    if (open)
        out << ", unsent " << r.unsent << ", late " << r.late << " (>" << fmt("%g", r.late_threshold_ms)
            << "ms), max queue " << r.max_queue;
    if (r.stale_retries) out << ", stale keep-alive retries " << r.stale_retries;
    out << "\n  Connections opened: " << r.connections_opened;
    if (r.protocol == "h3") {
        out << ", QUIC handshakes " << r.tls_handshakes;
        if (r.connect.count() > 0)
            out << " (p50 " << format_us(static_cast<double>(r.connect.value_at_percentile(50))) << ", p99 "
                << format_us(static_cast<double>(r.connect.value_at_percentile(99))) << ")";
    } else if (r.tls) {
        out << ", TLS handshakes " << r.tls_handshakes << " (resumed " << r.tls_resumed << ")";
    }
}

void statuses_and_errors(std::ostringstream& out, const LoadResult& r) {
    out << "\n  Status codes:";
    if (r.status_counts.empty()) out << " none";
    for (const auto& [code, n] : r.status_counts) out << " " << code << ":" << n;
    out << "\n";
    if (r.errors > 0) {
        out << "  Errors:";
        error_kinds(out, r.error_counts, " ");
        out << "\n";
        error_reasons(out, r.error_counts);
    }
    if (r.slow_seconds > 0) {
        std::uint64_t slow = 0;
        for (const auto& s : r.per_second) slow += s.slow;
        out << "  Slow (>" << fmt("%g", r.slow_threshold_ms) << "ms): " << slow << " responses in " << r.slow_seconds
            << " second(s)\n";
    }
}

void rates_and_warnings(std::ostringstream& out, const LoadResult& r) {
    out << "Requests/sec: " << fmt("%10.2f", r.requests_per_s()) << "\n";
    out << "Transfer/sec: " << pad(format_bytes(r.elapsed_s > 0 ? static_cast<double>(r.bytes_received) / r.elapsed_s : 0), 10)
        << "\n";
    out << "Generator CPU: " << fmt("%.2f", r.cpu.us_per_request) << "us/request, " << fmt("%.2f", r.cpu.cores_used)
        << " cores, " << fmt("%.1f", r.cpu.percent_of_threads) << "% of " << r.threads << " thread(s)"
        << (r.cpu.percent_waiting >= 1 ? ", " + fmt("%.1f", r.cpu.percent_waiting) + "% waiting for a CPU" : std::string())
        << "\n";
    if (r.interrupted) out << "Interrupted: the window closed early.\n";
    for (const auto& w : r.warnings) out << "WARNING: " << w << "\n";
}

}  // namespace

std::string format_report(const LoadResult& r) {
    std::ostringstream out;
    run_description(out, r);
    latencies(out, r);
    request_counts(out, r);
    statuses_and_errors(out, r);
    rates_and_warnings(out, r);
    return out.str();
}

}  // namespace stand::load
