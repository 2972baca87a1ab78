#include "load/hdr_json.hpp"

#include <boost/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>

namespace stand::load {

namespace json = boost::json;

namespace {

std::string sum_text(HdrSum sum) {
    if (sum == 0) return "0";
    std::string out;
    while (sum != 0) {
        out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(sum % 10)));
        sum /= 10;
    }
    return out;
}

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument("stand.hdr/1: " + why); }

HdrSum sum_of(const json::value& v) {
    const json::string* s = v.if_string();
    if (s == nullptr || s->empty() || s->size() > 39) refuse("sum: expected a decimal string");
    HdrSum sum = 0;
    for (char c : *s) {
        if (c < '0' || c > '9') refuse("sum: expected a decimal string");
        const HdrSum next = sum * 10 + static_cast<unsigned>(c - '0');
        if (next / 10 != sum) refuse("sum: beyond 128 bits");
        sum = next;
    }
    return sum;
}

std::optional<std::uint64_t> as_u64(const json::value& v) {
    if (v.is_uint64()) return v.get_uint64();
    if (v.is_int64() && v.get_int64() >= 0) return static_cast<std::uint64_t>(v.get_int64());
    return std::nullopt;
}

std::uint64_t u64(const json::object& o, const char* key) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) refuse(std::string(key) + ": missing");
    if (auto n = as_u64(*v)) return *n;
    refuse(std::string(key) + ": expected an integer >= 0");
}

}  // namespace

json::object hdr_to_json(const HdrHistogram& h) {
    const auto p = h.parts();
    json::array slots;
    slots.reserve(p.slots.size());
    for (const auto& [index, n] : p.slots) slots.push_back(json::array{index, n});
    return {{"schema", "stand.hdr/1"}, {"highest", p.highest}, {"lowest", p.lowest},    {"digits", p.digits},
            {"total", p.total},        {"min", p.min},         {"max", p.max},          {"clamped", p.clamped},
            {"sum", sum_text(p.sum)},  {"slots", std::move(slots)}};
}

HdrHistogram hdr_from_json(const json::value& v) {
    const json::object* o = v.if_object();
    if (o == nullptr) refuse("expected an object");
    const json::value* schema = o->if_contains("schema");
    if (schema == nullptr || !schema->is_string() || schema->get_string() != "stand.hdr/1")
        refuse("schema: expected \"stand.hdr/1\"");
    for (const auto& [key, _] : *o) {
        static constexpr std::string_view kKeys[] = {"schema", "highest", "lowest", "digits", "total",
                                                     "min",    "max",     "clamped", "sum",   "slots"};
        bool known = false;
        for (auto k : kKeys) known |= key == k;
        if (!known) refuse(std::string(key) + ": unknown key");
    }
    HdrHistogram::Parts p;
    p.highest = u64(*o, "highest");
    p.lowest = u64(*o, "lowest");
    const std::uint64_t digits = u64(*o, "digits");
    if (digits < 1 || digits > 5) refuse("digits: expected 1..5");
    p.digits = static_cast<int>(digits);
    p.total = u64(*o, "total");
    p.min = u64(*o, "min");
    p.max = u64(*o, "max");
    p.clamped = u64(*o, "clamped");
    const json::value* sum = o->if_contains("sum");
    if (sum == nullptr) refuse("sum: missing");
    p.sum = sum_of(*sum);
    const json::value* slots = o->if_contains("slots");
    if (slots == nullptr || !slots->is_array()) refuse("slots: expected an array");
    for (const auto& slot : slots->get_array()) {
        const json::array* pair = slot.if_array();
        const auto index = pair && pair->size() == 2 ? as_u64((*pair)[0]) : std::nullopt;
        const auto count = pair && pair->size() == 2 ? as_u64((*pair)[1]) : std::nullopt;
        if (!index || !count) refuse("slots: expected [index, count] pairs of integers >= 0");
        p.slots.emplace_back(static_cast<std::size_t>(*index), *count);
    }
    try {
        return HdrHistogram::from_parts(p);
    } catch (const std::invalid_argument& e) {
        refuse(e.what());
    }
}

}  // namespace stand::load
