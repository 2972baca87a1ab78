#include "compat/exchange_set.hpp"

#include "host/http/body_shape.hpp"

#include <set>
#include <stdexcept>

namespace stand::compat {
namespace {

namespace json = boost::json;

const json::value& member(const json::object& o, const char* key, json::kind kind, const char* what) {
    const auto* v = o.if_contains(key);
    const bool ok = v != nullptr && (v->kind() == kind || (kind == json::kind::int64 && v->is_number()));
    if (!ok) throw std::runtime_error(std::string(what) + ": \"" + key + "\" is missing or of the wrong type");
    return *v;
}

std::set<std::string> names_of(const json::value& array) {
    std::set<std::string> out;
    for (const auto& v : array.as_array()) out.emplace(v.as_string());
    return out;
}

json::array to_array(const std::set<std::string>& names) {
    json::array out;
    for (const auto& n : names) out.emplace_back(n);
    return out;
}

json::array united(const json::value& a, const json::value& b) {
    auto names = names_of(a);
    names.merge(names_of(b));
    return to_array(names);
}

std::string joined_types(const std::string& a, const std::string& b) {
    if (a == b) return a;
    return host::http::merge_shapes(json::value(a), json::value(b)).as_string().c_str();
}

json::object merged_response(const json::object& a, const json::object& b) {
    return {{"content_type", joined_types(std::string(a.at("content_type").as_string()),
                                          std::string(b.at("content_type").as_string()))},
            {"cookies", united(a.at("cookies"), b.at("cookies"))},
            {"headers", united(a.at("headers"), b.at("headers"))},
            {"body", host::http::merge_shapes(a.at("body"), b.at("body"))}};
}

json::object checked_response(const json::object& exchange) {
    const auto& r = member(exchange, "response", json::kind::object, "exchange").as_object();
    member(r, "content_type", json::kind::string, "exchange response");
    for (const char* list : {"cookies", "headers"})
        for (const auto& v : member(r, list, json::kind::array, "exchange response").as_array())
            if (!v.is_string()) throw std::runtime_error(std::string("exchange response: \"") + list + "\" holds a non-string");
    if (!r.contains("body")) throw std::runtime_error("exchange response: \"body\" is missing");
    return {{"content_type", r.at("content_type")},
            {"cookies", to_array(names_of(r.at("cookies")))},
            {"headers", to_array(names_of(r.at("headers")))},
            {"body", r.at("body")}};
}

}  // namespace

void ExchangeSet::add(const json::object& exchange) {
    Key key{std::string(member(exchange, "label", json::kind::string, "exchange").as_string()),
            std::string(member(exchange, "method", json::kind::string, "exchange").as_string()),
            std::string(member(exchange, "path", json::kind::string, "exchange").as_string()),
            member(exchange, "status", json::kind::int64, "exchange").to_number<std::int64_t>()};
    json::object response = checked_response(exchange);
    const auto& checks = member(exchange, "checks", json::kind::array, "exchange");
    for (const auto& c : checks.as_array())
        if (!c.is_string()) throw std::runtime_error("exchange: \"checks\" holds a non-string");
    auto it = by_key_.find(key);
    if (it == by_key_.end()) {
        by_key_.emplace(key, json::object{{"label", std::get<0>(key)},
                                          {"method", std::get<1>(key)},
                                          {"path", std::get<2>(key)},
                                          {"status", std::get<3>(key)},
                                          {"response", std::move(response)},
                                          {"checks", to_array(names_of(checks))}});
        return;
    }
    auto& kept = it->second;
    kept["response"] = merged_response(kept.at("response").as_object(), response);
    kept["checks"] = united(kept.at("checks"), checks);
}

json::array ExchangeSet::sorted() const {
    json::array out;
    for (const auto& [_, exchange] : by_key_) out.push_back(exchange);
    return out;
}

}  // namespace stand::compat
