#include "load/histogram_file.hpp"

#include "load/hdr_json.hpp"
#include "text/text_file.hpp"

#include <boost/json.hpp>

#include <stdexcept>

namespace stand::load {

namespace json = boost::json;

namespace {

constexpr const char* kSchema = "stand.load-histograms/1";

json::object map_to_json(const std::map<std::string, HdrHistogram>& map) {
    json::object out;
    for (const auto& [name, h] : map) out[name] = hdr_to_json(h);
    return out;
}

std::map<std::string, HdrHistogram> map_from_json(const json::object& o, const char* key) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr || !v->is_object()) throw std::invalid_argument(std::string(key) + ": expected an object");
    std::map<std::string, HdrHistogram> out;
    for (const auto& [name, h] : v->get_object()) {
        try {
            out.emplace(std::string(name), hdr_from_json(h));
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(std::string(key) + "." + std::string(name) + ": " + e.what());
        }
    }
    return out;
}

void merge_into(std::map<std::string, HdrHistogram>& into, const std::map<std::string, HdrHistogram>& from) {
    for (const auto& [name, h] : from) {
        auto it = into.find(name);
        if (it == into.end()) into.emplace(name, h);
        else it->second.merge(h);
    }
}

}  // namespace

json::object histogram_set_to_json(const HistogramSet& set) {
    return {{"schema", kSchema}, {"latency", map_to_json(set.latency)}, {"service", map_to_json(set.service)}};
}

HistogramSet histogram_set_from_json(const json::value& v) {
    const json::object* o = v.if_object();
    if (o == nullptr) throw std::invalid_argument("expected an object");
    const json::value* schema = o->if_contains("schema");
    if (schema == nullptr || !schema->is_string() || schema->get_string() != kSchema)
        throw std::invalid_argument(std::string("schema: expected \"") + kSchema + "\"");
    return {map_from_json(*o, "latency"), map_from_json(*o, "service")};
}

void write_histogram_file(const std::filesystem::path& file, const HistogramSet& set) {
    text::write_text_file(file, json::serialize(histogram_set_to_json(set)) + "\n");
}

HistogramSet read_histogram_file(const std::filesystem::path& file) {
    const std::string text = text::read_input_file(file, std::uintmax_t{256} << 20);
    json::error_code ec;
    const json::value v = json::parse(text, ec);
    try {
        if (ec) throw std::invalid_argument("not JSON: " + ec.message());
        return histogram_set_from_json(v);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(file.string() + ": " + e.what());
    }
}

HistogramSet merge_histogram_sets(const std::vector<HistogramSet>& sets) {
    HistogramSet out;
    for (const auto& s : sets) {
        merge_into(out.latency, s.latency);
        merge_into(out.service, s.service);
    }
    return out;
}

}  // namespace stand::load
