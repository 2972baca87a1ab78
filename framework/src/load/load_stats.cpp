#include "load/load_stats.hpp"

#include <algorithm>
#include <cstring>

namespace stand::load {

ThreadStats::ThreadStats(std::size_t links, std::size_t seconds_hint, std::uint64_t slow, bool open,
                         std::int64_t interval_ns)
    : latency_intervals(interval_ns, kHighestUs), per_link(links, 0), slow_us(slow), open_model(open) {
    seconds.reserve(seconds_hint);
    reasons.reserve(32);  // more than there are reasons: counting one never allocates
}

void ThreadStats::record_response(int code, std::int64_t latency_ns, std::int64_t service_ns,
                                  std::uint64_t body_bytes, std::int64_t since_start_ns) {
    const std::size_t cls = status_class(code);
    auto& lat = latency[cls];
    if (!lat) lat = std::make_unique<HdrHistogram>(kHighestUs);
    const std::uint64_t us = ns_to_us(latency_ns);
    lat->record(us);
    recent_latency.record(us);
    if (latency_intervals.enabled()) latency_intervals.record(since_start_ns, us);
    if (open_model) {
        auto& svc = service[cls];
        if (!svc) svc = std::make_unique<HdrHistogram>(kHighestUs);
        svc->record(ns_to_us(service_ns));
    }
    ++status[code >= 0 && code < 999 ? static_cast<std::size_t>(code) : 999];
    body.add(body_bytes);
    ++completed;
    SecondStats& s = second(since_start_ns > 0 ? static_cast<std::size_t>(since_start_ns / 1'000'000'000) : 0);
    ++s.completed;
    if (us > slow_us) ++s.slow;
}

void ThreadStats::record_error(ErrorKind kind, const char* reason, std::size_t sec) {
    auto same = [&](const ReasonCount& r) {
        return r.kind == kind && (r.reason == reason || std::strcmp(r.reason, reason) == 0);
    };
    if (auto it = std::find_if(reasons.begin(), reasons.end(), same); it != reasons.end()) ++it->count;
    else reasons.push_back({kind, reason, 1});
    ++error_total;
    ++second(sec).errors;
}

namespace {

void add_histogram(std::map<std::string, HdrHistogram>& map, const std::string& name, const HdrHistogram& h) {
    auto it = map.find(name);
    if (it == map.end()) it = map.emplace(name, HdrHistogram(kHighestUs)).first;
    it->second.merge(h);
}

}  // namespace

void merge_stats(LoadResult& out, const ThreadStats& s, bool open_model) {
    for (std::size_t cls = 0; cls < kStatusClasses; ++cls) {
        if (s.latency[cls]) {
            add_histogram(out.latency, status_class_name(cls), *s.latency[cls]);
            if (!open_model) add_histogram(out.service, status_class_name(cls), *s.latency[cls]);
        }
        if (open_model && s.service[cls]) add_histogram(out.service, status_class_name(cls), *s.service[cls]);
    }
    out.latency_intervals.merge(s.latency_intervals);
    out.send_lag.merge(s.send_lag);
    out.connect.merge(s.connect);
    for (std::size_t code = 0; code < s.status.size(); ++code)
        if (s.status[code] != 0) out.status_counts[static_cast<int>(code)] += s.status[code];
    for (const auto& r : s.reasons) out.error_counts.add(r.kind, r.reason, r.count);
    if (out.per_second.size() < s.seconds.size()) out.per_second.resize(s.seconds.size());
    for (std::size_t i = 0; i < s.seconds.size(); ++i) {
        out.per_second[i].completed += s.seconds[i].completed;
        out.per_second[i].errors += s.seconds[i].errors;
        out.per_second[i].slow += s.seconds[i].slow;
        out.per_second[i].in_flight_max += s.seconds[i].in_flight_max;
        out.per_second[i].backlog_max += s.seconds[i].backlog_max;
    }
    if (out.requests_per_link.size() < s.per_link.size()) out.requests_per_link.resize(s.per_link.size());
    for (std::size_t i = 0; i < s.per_link.size(); ++i) out.requests_per_link[i] += s.per_link[i];
    out.body.merge(s.body);
    out.offered += s.offered;
    out.sent += s.sent;
    out.completed += s.completed;
    out.errors += s.error_total;
    out.late += s.late;
    out.late_with_free_connection += s.late_with_free_connection;
    out.max_queue += s.max_backlog;
    out.unsent += s.unsent;
    out.stale_retries += s.stale_retries;
    out.connections_opened += s.connections_opened;
    out.tls_handshakes += s.tls_handshakes;
    out.tls_resumed += s.tls_resumed;
    out.bytes_received += s.bytes_received;
}

void finish_result(LoadResult& out) {
    HdrHistogram all(kHighestUs), all_service(kHighestUs);
    for (const auto& [name, h] : out.latency) all.merge(h);
    for (const auto& [name, h] : out.service) all_service.merge(h);
    if (!all.empty()) out.latency.emplace("all", std::move(all));
    if (!all_service.empty()) out.service.emplace("all", std::move(all_service));
    out.slow_seconds = 0;
    for (const auto& s : out.per_second)
        if (s.slow != 0) ++out.slow_seconds;
}

}  // namespace stand::load
