#include "load/load_result.hpp"

#include <boost/json.hpp>

#include <cmath>

namespace stand::load {

namespace json = boost::json;

const char* error_kind_name(ErrorKind kind) noexcept {
    switch (kind) {
    case ErrorKind::connect_refused: return "connect_refused";
    case ErrorKind::connect: return "connect";
    case ErrorKind::bind: return "bind";
    case ErrorKind::reset: return "reset";
    case ErrorKind::closed: return "closed";
    case ErrorKind::timeout: return "timeout";
    case ErrorKind::tls: return "tls";
    case ErrorKind::parse: return "parse";
    case ErrorKind::other: return "other";
    }
    return "other";
}

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

json::object LoadResult::to_json() const {
    json::object o;
    o["schema"] = "stand.load/1";
    o["model"] = model == Model::open ? "open" : "closed";
    if (model == Model::open) o["rate"] = rate;
    else o["rate"] = nullptr;
    o["threads"] = threads;
    o["connections"] = connections;
    o["duration_s"] = duration_s;
    o["keepalive"] = keepalive;
    o["tls"] = tls;
    o["timeout_s"] = timeout_s;
    o["protocol"] = protocol;
    o["streams_per_connection"] = streams_per_connection;
    if (!congestion_control.empty()) o["congestion_control"] = congestion_control;
    json::array u;
    for (const auto& url : urls) u.emplace_back(url);
    o["links"] = urls.size();
    o["urls"] = std::move(u);
    o["xff_pattern"] = xff_pattern.empty() ? json::value(nullptr) : json::value(xff_pattern);
    o["bind_prefix"] = bind_prefix.empty() ? json::value(nullptr) : json::value(bind_prefix);

    o["window_s"] = round3(window_s);
    o["elapsed_s"] = round3(elapsed_s);
    o["interrupted"] = interrupted;

    o["requests"] = {{"offered", offered},        {"sent", sent},
                     {"completed", completed},    {"errors", errors},
                     {"unsent", unsent},          {"late", late},
                     {"late_threshold_ms", late_threshold_ms},
                     {"max_queue", max_queue},    {"stale_retries", stale_retries}};
    o["throughput"] = {{"requests_per_s", round3(requests_per_s())},
                       {"sent_per_s", round3(sent_per_s())},
                       {"bytes_per_s", round3(elapsed_s > 0 ? static_cast<double>(bytes_received) / elapsed_s : 0)}};
    o["latency_us"] = histograms(latency);
    o["service_time_us"] = histograms(service);
    if (model == Model::open) o["send_lag_us"] = summarize_us(send_lag);
    o["connect_us"] = summarize_us(connect);
    o["connections_opened"] = connections_opened;
    if (tls) o["tls_handshakes"] = {{"total", tls_handshakes}, {"resumed", tls_resumed}};

    json::object statuses;
    for (const auto& [code, n] : status_counts) statuses[std::to_string(code)] = n;
    o["status_counts"] = std::move(statuses);
    json::object errs;
    for (std::size_t i = 0; i < kErrorKinds; ++i) errs[error_kind_name(static_cast<ErrorKind>(i))] = error_counts[i];
    o["errors"] = std::move(errs);

    json::array done, failed, slow, in_flight, backlog;
    for (const auto& s : per_second) {
        done.emplace_back(s.completed);
        failed.emplace_back(s.errors);
        slow.emplace_back(s.slow);
        in_flight.emplace_back(s.in_flight_max);
        backlog.emplace_back(s.backlog_max);
    }
    o["per_second"] = {{"completed", std::move(done)}, {"errors", std::move(failed)}, {"slow", std::move(slow)}};
    if (model == Model::open) {
        o["per_second"].as_object()["in_flight_max"] = std::move(in_flight);
        o["per_second"].as_object()["backlog_max"] = std::move(backlog);
    }
    o["slow_threshold_ms"] = slow_threshold_ms;
    o["slow_seconds"] = slow_seconds;

    o["bytes_received"] = bytes_received;
    o["body_bytes"] = {{"count", body.count},
                       {"total", body.total},
                       {"min", body.count ? body.min : 0},
                       {"mean", round3(body.count ? static_cast<double>(body.total) / static_cast<double>(body.count) : 0)},
                       {"max", body.max}};
    json::array per_link;
    for (auto n : requests_per_link) per_link.emplace_back(n);
    o["requests_per_link"] = std::move(per_link);

    o["cpu"] = {{"user_s", round3(cpu.user_s)},
                {"system_s", round3(cpu.system_s)},
                {"threads_s", round3(cpu.threads_s)},
                {"us_per_request", round3(cpu.us_per_request)},
                {"cores_used", round3(cpu.cores_used)},
                {"percent_of_threads", round3(cpu.percent_of_threads)}};
    o["generator_saturated"] = generator_saturated;
    json::array w;
    for (const auto& s : warnings) w.emplace_back(s);
    o["warnings"] = std::move(w);

    if (has_warmup) {
        json::object ws;
        for (const auto& [code, n] : warmup.status_counts) ws[std::to_string(code)] = n;
        json::object we;
        for (std::size_t i = 0; i < kErrorKinds; ++i)
            if (warmup.errors[i] != 0) we[error_kind_name(static_cast<ErrorKind>(i))] = warmup.errors[i];
        o["warmup"] = {{"requests", warmup.requests},
                       {"completed", warmup.completed},
                       {"elapsed_s", round3(warmup.elapsed_s)},
                       {"status_counts", std::move(ws)},
                       {"errors", std::move(we)}};
    }
    return o;
}

}  // namespace stand::load
