#include "scenario/probe_result.hpp"

#include "load/hdr_histogram.hpp"

#include <cmath>

namespace stand::scenario {
namespace {

namespace json = boost::json;

// Up to ten minutes per I/O in ns, three significant digits.
constexpr std::uint64_t kHighestNs = 600'000'000'000ULL;

struct Percentile {
    const char* metric;
    double p;
};
constexpr Percentile kPercentiles[] = {
    {"lat_p50_us", 50}, {"lat_p90_us", 90}, {"lat_p99_us", 99}, {"lat_p999_us", 99.9}};

std::uint64_t count_of(const json::value& v, const std::string& where) {
    if (v.is_uint64()) return v.as_uint64();
    if (v.is_int64() && v.as_int64() >= 0) return static_cast<std::uint64_t>(v.as_int64());
    if (v.is_double() && v.as_double() >= 0 && std::floor(v.as_double()) == v.as_double() && v.as_double() < 1.8e19)
        return static_cast<std::uint64_t>(v.as_double());
    throw std::invalid_argument(where + ": expected a non-negative integer, got " + json::serialize(v));
}

void read_histogram(const json::value& v, ProbeResult& out) {
    if (!v.is_array()) throw std::invalid_argument("latency_histogram_ns: expected an array of [value_ns, count]");
    load::HdrHistogram h(kHighestNs, 3);
    const auto& list = v.get_array();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string where = "latency_histogram_ns[" + std::to_string(i) + "]";
        if (!list[i].is_array() || list[i].get_array().size() != 2)
            throw std::invalid_argument(where + ": expected [value_ns, count], got " + json::serialize(list[i]));
        const auto& pair = list[i].get_array();
        h.record_n(count_of(pair[0], where + "[0]"), count_of(pair[1], where + "[1]"));
    }
    if (h.empty()) return;
    for (const auto& p : kPercentiles) {
        if (out.metrics.contains(p.metric))
            throw std::invalid_argument(std::string("metrics.") + p.metric +
                                        ": the host computes it from latency_histogram_ns; send only the histogram");
        out.metrics[p.metric] = static_cast<double>(h.value_at_percentile(p.p)) / 1000.0;
    }
    if (h.clamped() > 0)
        out.notes.push_back(std::to_string(h.clamped()) + " I/O latencies above 600 s were counted as 600 s");
}

}  // namespace

ProbeResult read_probe_result(const json::value& output) {
    if (!output.is_object()) throw std::invalid_argument("expected a JSON object, got " + json::serialize(output));
    const auto& o = output.get_object();
    ProbeResult out;
    for (const auto& [key, value] : o) {
        if (key == "metrics") {
            if (!value.is_object()) throw std::invalid_argument("metrics: expected an object of numbers");
            for (const auto& [name, v] : value.get_object()) {
                // "" would become the metric "<step>." of every table and file
                if (name.empty()) throw std::invalid_argument("metrics: a metric with an empty name");
                if (!v.is_number() || !std::isfinite(v.to_number<double>()))
                    throw std::invalid_argument("metrics." + std::string(name) + ": expected a finite number, got " +
                                                json::serialize(v));
                out.metrics[std::string(name)] = v.to_number<double>();
            }
        } else if (key == "facts") {
            if (!value.is_object()) throw std::invalid_argument("facts: expected an object");
            out.facts = value.get_object();
        } else if (key == "notes") {
            if (!value.is_array()) throw std::invalid_argument("notes: expected an array of strings");
            for (const auto& n : value.get_array()) {
                if (!n.is_string()) throw std::invalid_argument("notes: expected strings, got " + json::serialize(n));
                out.notes.emplace_back(n.get_string());
            }
        } else if (key != "latency_histogram_ns") {
            throw std::invalid_argument("unknown key '" + std::string(key) +
                                        "' (expected metrics, latency_histogram_ns, facts, notes)");
        }
    }
    if (const auto* h = o.if_contains("latency_histogram_ns")) read_histogram(*h, out);
    return out;
}

}  // namespace stand::scenario
