#include "scenario/json_reader.hpp"

#include "text/number_format.hpp"

#include <cmath>
#include <limits>

namespace stand::scenario {
namespace {

namespace json = boost::json;

bool is_identifier(std::string_view key) {
    if (key.empty() || (key[0] >= '0' && key[0] <= '9')) return false;
    for (char c : key)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

// The value as an integer when it is one (int, uint or an integral double).
std::optional<long double> integral_value(const json::value& v) {
    if (v.is_int64()) return static_cast<long double>(v.get_int64());
    if (v.is_uint64()) return static_cast<long double>(v.get_uint64());
    if (v.is_double() && std::isfinite(v.get_double()) && std::trunc(v.get_double()) == v.get_double())
        return static_cast<long double>(v.get_double());
    return std::nullopt;
}

}  // namespace

JsonPlace JsonPlace::key(std::string_view key) const {
    if (is_identifier(key)) return JsonPlace(file_, path_ + "." + std::string(key));
    return JsonPlace(file_, path_ + "[" + json::serialize(json::string_view(key.data(), key.size())) + "]");
}

JsonPlace JsonPlace::index(std::size_t i) const { return JsonPlace(file_, path_ + "[" + std::to_string(i) + "]"); }

void JsonPlace::fail(std::string_view expected, const json::value* found) const {
    fail_message("expected " + std::string(expected) + ", got " + (found ? describe_json(*found) : "nothing"));
}

void JsonPlace::fail_message(std::string message) const { throw ScenarioError(file_, path_, std::move(message)); }

std::string describe_json(const json::value& v) {
    constexpr std::size_t kMaxString = 40;
    switch (v.kind()) {
    case json::kind::null: return "null";
    case json::kind::bool_: return v.get_bool() ? "true" : "false";
    case json::kind::int64: return std::to_string(v.get_int64());
    case json::kind::uint64: return std::to_string(v.get_uint64());
    case json::kind::double_: return text::format_exact(v.get_double());
    case json::kind::string: {
        const json::string& s = v.get_string();
        if (s.size() <= kMaxString) return json::serialize(s);
        std::size_t cut = kMaxString;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
        std::string shown = json::serialize(json::string_view(s.data(), cut));
        return shown.insert(shown.size() - 1, "...");
    }
    case json::kind::array: return v.get_array().empty() ? "[]" : "an array";
    case json::kind::object: return v.get_object().empty() ? "{}" : "an object";
    }
    return "a value";
}

std::string describe_uint_range(std::uint64_t min, std::uint64_t max) {
    if (min > 1) return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    return min == 0 ? "a non-negative integer" : "a positive integer";
}

const json::object& expect_object(const json::value& v, const JsonPlace& place) {
    if (!v.is_object()) place.fail("an object", &v);
    return v.get_object();
}

const json::array& expect_array(const json::value& v, const JsonPlace& place, bool non_empty) {
    if (!v.is_array() || (non_empty && v.get_array().empty())) place.fail(non_empty ? "a non-empty array" : "an array", &v);
    return v.get_array();
}

std::string expect_string(const json::value& v, const JsonPlace& place, bool non_empty) {
    if (!v.is_string() || (non_empty && v.get_string().empty()))
        place.fail(non_empty ? "a non-empty string" : "a string", &v);
    return std::string(v.get_string());
}

bool expect_bool(const json::value& v, const JsonPlace& place) {
    if (!v.is_bool()) place.fail("true or false", &v);
    return v.get_bool();
}

std::uint64_t expect_uint(const json::value& v, const JsonPlace& place, std::uint64_t min, std::uint64_t max) {
    const std::string what = describe_uint_range(min, max);
    const auto value = integral_value(v);
    if (!value) place.fail(what, &v);
    if (*value < static_cast<long double>(min) || *value > static_cast<long double>(max)) {
        // The type was right, so say the whole range.
        place.fail(min > 1 ? what : what + " up to " + std::to_string(max), &v);
    }
    return v.is_uint64() ? v.get_uint64() : static_cast<std::uint64_t>(*value);
}

double expect_positive(const json::value& v, const JsonPlace& place, double max) {
    if (!v.is_number()) place.fail("a positive number", &v);
    const double d = v.to_number<double>();
    if (!(d > 0) || !(d <= max)) place.fail("a positive number up to " + text::format_exact(max), &v);
    return d;
}

ObjectReader::ObjectReader(const json::value& v, JsonPlace place, std::string_view owner,
                           const std::vector<std::string_view>& allowed)
    : object_(&expect_object(v, place)), place_(std::move(place)) {
    for (const auto& entry : *object_) {
        bool known = false;
        for (std::string_view k : allowed) known = known || entry.key() == k;
        if (known) continue;
        std::string list;
        for (std::string_view k : allowed) list += (list.empty() ? "" : ", ") + std::string(k);
        place_.key(entry.key()).fail_message("expected a key of " + std::string(owner) + " (" + list + "), got " +
                                             json::serialize(entry.key()));
    }
}

const json::value* ObjectReader::find(std::string_view key) const {
    return object_->if_contains(json::string_view(key.data(), key.size()));
}

const json::value& ObjectReader::require(std::string_view key, std::string_view expected) const {
    const json::value* v = find(key);
    if (v == nullptr) at(key).fail(expected, nullptr);
    return *v;
}

std::optional<std::string> ObjectReader::string(std::string_view key) const {
    const json::value* v = find(key);
    if (v == nullptr) return std::nullopt;
    return expect_string(*v, at(key), true);
}

std::optional<bool> ObjectReader::boolean(std::string_view key) const {
    const json::value* v = find(key);
    if (v == nullptr) return std::nullopt;
    return expect_bool(*v, at(key));
}

std::optional<std::uint64_t> ObjectReader::uint(std::string_view key, std::uint64_t min, std::uint64_t max) const {
    const json::value* v = find(key);
    if (v == nullptr) return std::nullopt;
    return expect_uint(*v, at(key), min, max);
}

std::optional<double> ObjectReader::positive(std::string_view key, double max) const {
    const json::value* v = find(key);
    if (v == nullptr) return std::nullopt;
    return expect_positive(*v, at(key), max);
}

}  // namespace stand::scenario
