#include "load/load_result.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>

namespace stand::load {

namespace json = boost::json;

const char* status_class_name(std::size_t cls) noexcept {
    static const char* const names[kStatusClasses] = {"1xx", "2xx", "3xx", "4xx", "5xx", "other"};
    return cls < kStatusClasses ? names[cls] : "other";
}

namespace {

double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

json::object histograms(const std::map<std::string, HdrHistogram>& map) {
    json::object out;
    for (const auto& [name, h] : map) out[name] = summarize_us(h);
    return out;
}

}  // namespace

json::object summarize_us(const HdrHistogram& h) {
    return {{"count", h.count()},
            {"min", h.min()},
            {"mean", round3(h.mean())},
            {"stdev", round3(h.stddev())},
            {"p50", h.value_at_percentile(50)},
            {"p75", h.value_at_percentile(75)},
            {"p90", h.value_at_percentile(90)},
            {"p99", h.value_at_percentile(99)},
            {"p99_9", h.value_at_percentile(99.9)},
            {"p99_99", h.value_at_percentile(99.99)},
            {"max", h.max()}};
}

namespace {

// The pieces of LoadResult::to_json, each writing its keys in stand.load/1's order.

void put_settings(json::object& o, const LoadResult& r) {
    o["schema"] = "stand.load/1";
    o["model"] = r.model == Model::open ? "open" : "closed";
    if (r.model == Model::open) o["rate"] = r.rate;
    else o["rate"] = nullptr;
    o["threads"] = r.threads;
    o["connections"] = r.connections;
    o["duration_s"] = r.duration_s;
    o["keepalive"] = r.keepalive;
    o["tls"] = r.tls;
    o["timeout_s"] = r.timeout_s;
    o["protocol"] = r.protocol;
    o["streams_per_connection"] = r.streams_per_connection;
    if (!r.congestion_control.empty()) o["congestion_control"] = r.congestion_control;
    if (r.udp) o["udp"] = r.udp->to_json();
    o["engine"] = r.engine;
    if (!r.engine_note.empty()) o["engine_note"] = r.engine_note;
    json::array u;
    for (const auto& url : r.urls) u.emplace_back(url);
    o["links"] = r.links;
    o["urls"] = std::move(u);
    if (r.links > r.urls.size()) o["urls_not_listed"] = r.links - r.urls.size();
    o["xff_pattern"] = r.xff_pattern.empty() ? json::value(nullptr) : json::value(r.xff_pattern);
    o["bind_prefix"] = r.bind_prefix.empty() ? json::value(nullptr) : json::value(r.bind_prefix);
}

void put_counts_and_latency(json::object& o, const LoadResult& r) {
    o["requests"] = {{"offered", r.offered},        {"sent", r.sent},
                     {"completed", r.completed},    {"errors", r.errors},
                     {"unsent", r.unsent},          {"late", r.late}, {"late_with_free_connection", r.late_with_free_connection},
                     {"late_threshold_ms", r.late_threshold_ms},
                     {"max_queue", r.max_queue},    {"stale_retries", r.stale_retries}};
    o["throughput"] = {{"requests_per_s", round3(r.requests_per_s())},
                       {"sent_per_s", round3(r.sent_per_s())},
                       {"bytes_per_s", round3(r.elapsed_s > 0 ? static_cast<double>(r.bytes_received) / r.elapsed_s : 0)}};
    o["latency_us"] = histograms(r.latency);
    o["service_time_us"] = histograms(r.service);
    if (r.model == Model::open) o["send_lag_us"] = summarize_us(r.send_lag);
    o["connect_us"] = summarize_us(r.connect);
    o["connections_opened"] = r.connections_opened;
    if (r.tls) o["tls_handshakes"] = {{"total", r.tls_handshakes}, {"resumed", r.tls_resumed}};
}

json::object status_counts_json(const std::map<int, std::uint64_t>& counts) {
    json::object out;
    for (const auto& [code, n] : counts) out[std::to_string(code)] = n;
    return out;
}

// Every kind when `all`, else only the kinds that occurred.
json::object error_counts_json(const ErrorCounts& counts, bool all) {
    json::object out;
    for (std::size_t i = 0; i < kErrorKinds; ++i)
        if (all || counts.by_kind[i] != 0) out[error_kind_name(static_cast<ErrorKind>(i))] = counts.by_kind[i];
    return out;
}

// kind -> reason -> count, for the kinds that occurred.
json::object error_reasons_json(const ErrorCounts& counts) {
    json::object out;
    for (std::size_t i = 0; i < kErrorKinds; ++i) {
        if (counts.by_reason[i].empty()) continue;
        json::object reasons;
        for (const auto& [reason, n] : counts.by_reason[i]) reasons[reason] = n;
        out[error_kind_name(static_cast<ErrorKind>(i))] = std::move(reasons);
    }
    return out;
}

json::object per_second_json(const LoadResult& r) {
    json::array done, failed, slow, in_flight, backlog;
    for (const auto& s : r.per_second) {
        done.emplace_back(s.completed);
        failed.emplace_back(s.errors);
        slow.emplace_back(s.slow);
        in_flight.emplace_back(s.in_flight_max);
        backlog.emplace_back(s.backlog_max);
    }
    json::object out{{"completed", std::move(done)}, {"errors", std::move(failed)}, {"slow", std::move(slow)}};
    if (r.model == Model::open) {
        out["in_flight_max"] = std::move(in_flight);
        out["backlog_max"] = std::move(backlog);
    }
    return out;
}

void put_bytes_cpu_warnings(json::object& o, const LoadResult& r) {
    o["bytes_received"] = r.bytes_received;
    const auto& body = r.body;
    o["body_bytes"] = {{"count", body.count},
                       {"total", body.total},
                       {"min", body.count ? body.min : 0},
                       {"mean", round3(body.count ? static_cast<double>(body.total) / static_cast<double>(body.count) : 0)},
                       {"max", body.max}};
    if (r.requests_per_link.size() <= kListedLinks) {
        json::array per_link;
        for (auto n : r.requests_per_link) per_link.emplace_back(n);
        o["requests_per_link"] = std::move(per_link);
    } else {
        o["requests_per_link"] = nullptr;  // see the summary
    }
    const auto& counts = r.requests_per_link;
    const auto [least, most] = std::minmax_element(counts.begin(), counts.end());
    o["requests_per_link_summary"] = {
        {"links", counts.size()},
        {"min", counts.empty() ? 0 : *least},
        {"max", counts.empty() ? 0 : *most},
        {"never_requested", static_cast<std::uint64_t>(std::count(counts.begin(), counts.end(), 0))}};

    const auto& cpu = r.cpu;
    o["cpu"] = {{"user_s", round3(cpu.user_s)},
                {"system_s", round3(cpu.system_s)},
                {"threads_s", round3(cpu.threads_s)},
                {"us_per_request", round3(cpu.us_per_request)},
                {"cores_used", round3(cpu.cores_used)},
                {"percent_of_threads", round3(cpu.percent_of_threads)},
                {"percent_waiting", round3(cpu.percent_waiting)}};
    o["generator_saturated"] = r.generator_saturated;
    json::array w;
    for (const auto& s : r.warnings) w.emplace_back(s);
    o["warnings"] = std::move(w);
}

json::object warmup_json(const WarmupResult& warmup) {
    return {{"requests", warmup.requests},
            {"completed", warmup.completed},
            {"elapsed_s", round3(warmup.elapsed_s)},
            {"status_counts", status_counts_json(warmup.status_counts)},
            {"errors", error_counts_json(warmup.errors, false)},
            {"error_reasons", error_reasons_json(warmup.errors)}};
}

}  // namespace

json::object LoadResult::to_json() const {
    json::object o;
    put_settings(o, *this);
    o["window_s"] = round3(window_s);
    o["elapsed_s"] = round3(elapsed_s);
    o["interrupted"] = interrupted;
    put_counts_and_latency(o, *this);
    o["status_counts"] = status_counts_json(status_counts);
    o["errors"] = error_counts_json(error_counts, true);
    o["error_reasons"] = error_reasons_json(error_counts);
    o["per_second"] = per_second_json(*this);
    o["slow_threshold_ms"] = slow_threshold_ms;
    o["slow_seconds"] = slow_seconds;
    put_bytes_cpu_warnings(o, *this);
    if (has_warmup) o["warmup"] = warmup_json(warmup);
    return o;
}

}  // namespace stand::load
