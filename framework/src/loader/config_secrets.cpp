#include "loader/config_secrets.hpp"

#include "text/secrets.hpp"

#include <boost/json.hpp>

#include <functional>

namespace stand::loader {

namespace json = boost::json;

namespace {

using Visit = std::function<void(json::value& secret)>;

// Calls `visit` on every value of `config` at a property its schema marks writeOnly.
void each_secret(json::object& config, const json::value& schema, const Visit& visit) {
    const json::object* s = schema.if_object();
    const json::value* props = s ? s->if_contains("properties") : nullptr;
    if (props == nullptr || !props->is_object()) return;
    for (const auto& [name, prop] : props->get_object()) {
        json::value* v = config.if_contains(name);
        if (v == nullptr || !prop.is_object()) continue;
        const json::value* write_only = prop.get_object().if_contains("writeOnly");
        if (write_only != nullptr && write_only->is_bool() && write_only->get_bool()) visit(*v);
        else if (v->is_object()) each_secret(v->get_object(), prop, visit);
    }
}

json::value parsed_schema(std::string_view schema_json) {
    if (schema_json.empty()) return nullptr;
    boost::system::error_code ec;
    json::value schema = json::parse(schema_json, ec);
    return ec ? json::value(nullptr) : schema;
}

}  // namespace

json::object redacted_config(const json::object& config, std::string_view schema_json) {
    json::object out = config;
    each_secret(out, parsed_schema(schema_json), [](json::value& v) { v = text::kRedacted; });
    return out;
}

void register_config_secrets(const json::object& config, std::string_view schema_json) {
    json::object copy = config;
    each_secret(copy, parsed_schema(schema_json), [](json::value& v) { text::secrets().add_all(v); });
}

}  // namespace stand::loader
