#include "host/http/body_shape.hpp"

#include <boost/json.hpp>

#include <map>
#include <set>
#include <string>

namespace stand::host::http {
namespace {

namespace json = boost::json;

// Objects are built from a sorted map so that equal shapes serialise equally.
json::object sorted_object(const std::map<std::string, json::value>& keys) {
    json::object out;
    for (const auto& [k, v] : keys) out[k] = v;
    return out;
}

// The type names a shape stands for: "object", "array" or its "a|b" parts.
std::set<std::string> type_names(const json::value& shape) {
    if (shape.is_object()) return {"object"};
    if (shape.is_array()) return {"array"};
    std::set<std::string> names;
    const std::string text(shape.as_string());
    std::size_t start = 0;
    for (std::size_t bar; (bar = text.find('|', start)) != std::string::npos; start = bar + 1)
        names.insert(text.substr(start, bar - start));
    names.insert(text.substr(start));
    return names;
}

}  // namespace

json::value json_shape(const json::value& value) {
    switch (value.kind()) {
    case json::kind::object: {
        std::map<std::string, json::value> keys;
        for (const auto& [k, v] : value.get_object()) keys[std::string(k)] = json_shape(v);
        return sorted_object(keys);
    }
    case json::kind::array: {
        const auto& a = value.get_array();
        if (a.empty()) return json::array{};
        json::value merged = json_shape(a.front());
        for (std::size_t i = 1; i < a.size(); ++i) merged = merge_shapes(merged, json_shape(a[i]));
        return json::array{merged};
    }
    case json::kind::string: return "string";
    case json::kind::bool_: return "boolean";
    case json::kind::null: return "null";
    default: return "number";
    }
}

json::value merge_shapes(const json::value& a, const json::value& b) {
    if (a == b) return a;
    if (a.is_object() && b.is_object()) {
        std::map<std::string, json::value> keys;
        for (const auto& [k, v] : a.get_object()) keys[std::string(k)] = v;
        for (const auto& [k, v] : b.get_object()) {
            auto it = keys.find(std::string(k));
            if (it == keys.end()) keys[std::string(k)] = v;
            else it->second = merge_shapes(it->second, v);
        }
        return sorted_object(keys);
    }
    if (a.is_array() && b.is_array()) {
        if (a.get_array().empty()) return b;
        if (b.get_array().empty()) return a;
        return json::array{merge_shapes(a.get_array().front(), b.get_array().front())};
    }
    std::set<std::string> names = type_names(a);
    names.merge(type_names(b));
    std::string joined;
    for (const auto& n : names) joined += (joined.empty() ? "" : "|") + n;
    return json::value(joined);
}

json::value body_shape(std::string_view body, std::string_view content_type) {
    if (body.empty()) return "empty";
    boost::system::error_code ec;
    json::value parsed = json::parse(body, ec);
    if (ec) return "text";
    const bool says_json = content_type.find("json") != std::string_view::npos;
    if (!says_json && !parsed.is_object() && !parsed.is_array()) return "text";
    return json_shape(parsed);
}

}  // namespace stand::host::http
