#include "fleetrun/merged_load.hpp"

#include "load/load_result.hpp"
#include "text/json_path.hpp"
#include "text/number_format.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace stand::fleetrun {
namespace {

namespace json = boost::json;

// Starts further apart than this are a warning: the generators did not load together.
constexpr std::int64_t kStartSpreadWarnNs = 50'000'000;

bool came_back(const GeneratorOutcome& g) { return g.problem.empty() && !g.result.empty(); }

double number(const json::value& v) {
    if (v.is_int64()) return static_cast<double>(v.get_int64());
    if (v.is_uint64()) return static_cast<double>(v.get_uint64());
    return v.is_double() ? v.get_double() : 0;
}

json::value sum(const json::value& a, const json::value& b) {
    if (a.is_int64() && b.is_int64()) return a.get_int64() + b.get_int64();
    if ((a.is_int64() || a.is_uint64()) && (b.is_int64() || b.is_uint64()))
        return static_cast<std::uint64_t>(a.to_number<std::uint64_t>() + b.to_number<std::uint64_t>());
    return number(a) + number(b);
}

// Counts added key by key (objects of counts, nested), arrays element by element.
void add_counts(json::value& into, const json::value& from) {
    if (into.is_object() && from.is_object()) {
        for (const auto& [key, v] : from.get_object()) {
            auto it = into.get_object().find(key);
            if (it == into.get_object().end()) into.get_object()[key] = v;
            else add_counts(it->value(), v);
        }
    } else if (into.is_array() && from.is_array()) {
        auto& a = into.get_array();
        const auto& b = from.get_array();
        for (std::size_t i = 0; i < b.size(); ++i) {
            if (i < a.size()) add_counts(a[i], b[i]);
            else a.push_back(b[i]);
        }
    } else if (into.is_number() && from.is_number()) {
        into = sum(into, from);
    }
}

json::object summaries(const std::map<std::string, load::HdrHistogram>& set) {
    json::object out;
    for (const auto& [name, h] : set) out[name] = load::summarize_us(h);
    return out;
}

using text::json_at;

json::object merged_counts(const GeneratorLoadResult& result, std::size_t& n) {
    json::value requests = json::object{}, throughput = json::object{}, statuses = json::object{}, errors = json::object{},
                reasons = json::object{}, per_second = json::object{};
    std::uint64_t max_queue = 0;
    n = 0;
    for (const auto& g : result.generators) {
        if (!came_back(g)) continue;
        ++n;
        for (const char* key : {"offered", "sent", "completed", "errors", "unsent", "late", "late_with_free_connection", "stale_retries"})
            if (const auto* v = json_at(g.result, {"requests", key})) add_counts(requests, json::object{{key, *v}});
        if (const auto* v = json_at(g.result, {"requests", "max_queue"})) max_queue = std::max(max_queue, v->to_number<std::uint64_t>());
        if (const auto* v = g.result.if_contains("throughput")) add_counts(throughput, *v);
        if (const auto* v = g.result.if_contains("status_counts")) add_counts(statuses, *v);
        if (const auto* v = g.result.if_contains("errors")) add_counts(errors, *v);
        if (const auto* v = g.result.if_contains("error_reasons")) add_counts(reasons, *v);
        for (const char* key : {"completed", "errors", "slow"})
            if (const auto* v = json_at(g.result, {"per_second", key})) add_counts(per_second, json::object{{key, *v}});
    }
    requests.get_object()["max_queue_per_generator"] = max_queue;
    return {{"requests", requests},    {"throughput", throughput}, {"status_counts", statuses},
            {"errors", errors},        {"error_reasons", reasons}, {"per_second", per_second}};
}

std::string ms(std::int64_t ns) { return text::PrintfFormat("%.1f").apply(static_cast<double>(ns) / 1e6) + " ms"; }

// Each generator's actual start on the controller's clock: the spread
// between the first and the last, and warnings for what one got wrong.
json::object start_json(const GeneratorLoadResult& result, json::array& warnings) {
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min();
    std::int64_t uncertainty = 0;
    for (const auto& g : result.generators) {
        const auto* actual = came_back(g) ? json_at(g.result, {"start", "actual_unix_ns"}) : nullptr;
        if (actual == nullptr) continue;
        const std::int64_t here = actual->to_number<std::int64_t>() - g.clock.offset_ns;
        first = std::min(first, here);
        last = std::max(last, here);
        uncertainty = std::max(uncertainty, g.clock.uncertainty_ns);
    }
    json::object start{{"planned_unix_ns", result.start_at_ns}};
    if (first > last) return start;
    start["spread_us"] = (last - first) / 1000;
    start["clock_uncertainty_us"] = uncertainty / 1000;
    if (last - first > kStartSpreadWarnNs)
        warnings.emplace_back("the generators started " + ms(last - first) + " apart (clock offsets known to ±" +
                              ms(uncertainty) + "): the first loaded alone for that long");
    return start;
}

json::object generator_json(const GeneratorOutcome& g, json::array& warnings) {
    json::object o{{"name", g.name},
                   {"url", g.url},
                   {"clock_offset_ns", g.clock.offset_ns},
                   {"clock_uncertainty_ns", g.clock.uncertainty_ns},
                   {"rate", g.rate > 0 ? json::value(g.rate) : json::value(nullptr)},
                   {"max_requests", g.max_requests},
                   {"exit_code", g.exit_code},
                   {"problem", g.problem},
                   {"result", g.result}};
    if (!g.net.empty()) {
        o["net"] = g.net;
        if (const auto* ok = g.net.if_contains("as_planned"); ok && ok->is_bool() && !ok->get_bool())
            warnings.emplace_back(g.name + ": the RTT measured to the target with its --link qdisc on is " +
                                  ms(g.net.at("rtt_measured_us").to_number<std::int64_t>() * 1000) + ", not the planned " +
                                  ms(g.net.at("planned").at("rtt_us").to_number<std::int64_t>() * 1000) + " on top of " +
                                  ms(g.net.at("rtt_before_us").to_number<std::int64_t>() * 1000) +
                                  ": the link is not as declared");
    }
    if (!g.net_problem.empty()) warnings.emplace_back(g.name + ": " + g.net_problem);
    if (!g.problem.empty()) warnings.emplace_back(g.name + ": " + g.problem + " (the merged figures leave it out)");
    if (const auto* s = g.result.if_contains("generator_saturated"); s && s->is_bool() && s->get_bool())
        warnings.emplace_back(g.name + ": its generator was saturated (see its cpu): its numbers are its own limit");
    if (const auto* w = g.result.if_contains("warnings"); w && w->is_array())
        for (const auto& line : w->get_array())
            if (line.is_string()) warnings.emplace_back(g.name + ": " + std::string(line.get_string()));
    return o;
}

}  // namespace

load::HistogramSet merged_histograms(const GeneratorLoadResult& result) {
    std::vector<load::HistogramSet> sets;
    for (const auto& g : result.generators)
        if (came_back(g)) sets.push_back(g.histograms);
    return load::merge_histogram_sets(sets);
}

json::object merged_load_json(const GeneratorLoadResult& result, const load::HistogramSet& merged) {
    json::array warnings;
    json::array generators;
    for (const auto& g : result.generators) generators.push_back(generator_json(g, warnings));
    std::size_t n = 0;
    json::object all = merged_counts(result, n);
    all["generators"] = n;
    all["latency_us"] = summaries(merged.latency);
    all["service_time_us"] = summaries(merged.service);
    json::object out{{"schema", "stand.load-fleet/1"}, {"start", start_json(result, warnings)},
                     {"generators", std::move(generators)}, {"merged", std::move(all)}};
    out["warnings"] = std::move(warnings);
    return out;
}

}  // namespace stand::fleetrun
