// Tolerant reads of optional JSON fields for the HTML report: a missing key
// or a value of another type reads as "absent", never as an exception.
#pragma once

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace stand::report::json_get {

inline const boost::json::value* value_at(const boost::json::object& o, std::string_view key) {
    return o.if_contains(key);
}

inline std::optional<double> number_at(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = o.if_contains(key);
    if (v == nullptr || !v->is_number()) return std::nullopt;
    return v->to_number<double>();
}

inline const boost::json::object* object_at(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = o.if_contains(key);
    return v != nullptr && v->is_object() ? &v->get_object() : nullptr;
}

inline const boost::json::array* array_at(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = o.if_contains(key);
    return v != nullptr && v->is_array() ? &v->get_array() : nullptr;
}

inline std::string string_at(const boost::json::object& o, std::string_view key) {
    const boost::json::value* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

}  // namespace stand::report::json_get
