#include "envoy_schema_check.hpp"

#include "json_schema_check.hpp"

#include <map>
#include <optional>
#include <regex>
#include <set>

namespace stand_envoy::test {
namespace {

namespace json = boost::json;

constexpr const char* kAnyPrefix = "type.googleapis.com/";

const json::object& schema() {
    static const json::object s = stand::test::read_json_file(std::filesystem::path(STAND_TEST_SOURCE_DIR) /
                                                              "tests/data/envoy/envoy-v3-schema.json");
    return s;
}

class Checker {
public:
    explicit Checker(std::vector<std::string>& out) : out_(out) {}

    void message(const json::value& v, const std::string& type, const std::string& path) {
        if (type.rfind("google.protobuf.", 0) == 0) return well_known(v, type, path);
        const auto* m = schema().at("messages").as_object().if_contains(type);
        if (m == nullptr) return problem(path, "message " + type + " is not in the schema extract");
        if (!v.is_object()) return problem(path, "expected an object (" + type + ")");
        const auto& fields = m->at("fields").as_object();
        std::map<std::string, int> oneof_count;
        std::set<std::string> present;
        for (const auto& kv : v.as_object()) {
            const std::string key(kv.key());
            const std::string at = path.empty() ? key : path + "." + key;
            if (key == "@type") continue;  // checked by the Any that holds this message
            const auto name = field_named(fields, key);
            if (!name) {
                problem(at, "no field '" + key + "' in " + type);
                continue;
            }
            const auto& f = fields.at(*name).as_object();
            present.insert(*name);
            if (f.contains("deprecated")) problem(at, "deprecated field of " + type);
            if (const auto* o = f.if_contains("oneof")) ++oneof_count[std::string(o->as_string())];
            field(kv.value(), f, at);
        }
        for (const auto& [oneof, count] : oneof_count)
            if (count > 1) problem(path, "more than one field of oneof " + oneof + " in " + type);
        for (const auto& o : m->at("oneofs").as_object())
            if (o.value().at("required").as_bool() && oneof_count.count(std::string(o.key())) == 0)
                problem(path, "oneof " + std::string(o.key()) + " of " + type + " is required");
        for (const auto& kv : fields)
            if (kv.value().as_object().contains("required") && present.count(std::string(kv.key())) == 0)
                problem(path, "field " + std::string(kv.key()) + " of " + type + " is required");
    }

private:
    // proto3 JSON accepts the proto field name and its lowerCamelCase json_name.
    static std::optional<std::string> field_named(const json::object& fields, const std::string& key) {
        for (const auto& kv : fields)
            if (kv.key() == key || kv.value().at("json").as_string() == key) return std::string(kv.key());
        return std::nullopt;
    }

    void field(const json::value& v, const json::object& f, const std::string& path) {
        const auto* label = f.if_contains("label");
        if (label != nullptr && *label == "map") {
            if (!v.is_object()) return problem(path, "expected an object (map)");
            const auto& value_type = f.at("value").as_object();
            for (const auto& kv : v.as_object())
                single(kv.value(), value_type, f, path + "." + std::string(kv.key()));
            at_least(v.as_object().size(), f.if_contains("min_pairs"), "entries", path);
            return;
        }
        if (label != nullptr && *label == "repeated") {
            if (!v.is_array()) return problem(path, "expected an array (repeated)");
            for (std::size_t i = 0; i < v.as_array().size(); ++i)
                single(v.as_array()[i], f, f, path + "[" + std::to_string(i) + "]");
            at_least(v.as_array().size(), f.if_contains("min_items"), "items", path);
            return;
        }
        single(v, f, f, path);
    }

    // `type` holds kind (and type); `rules` the field's validation rules.
    void single(const json::value& v, const json::object& type, const json::object& rules, const std::string& path) {
        if (v.is_null()) return problem(path, "null (leave the field out for its default)");
        const std::string kind(type.at("kind").as_string());
        if (kind == "message") {
            const std::string name(type.at("type").as_string());
            message(v, name, path);
            if (name.find("Value") != std::string::npos && v.is_number()) bounds(v.to_number<double>(), rules, path);
        } else if (kind == "enum") {
            enum_value(v, std::string(type.at("type").as_string()), path);
        } else if (kind == "string" || kind == "bytes") {
            if (!v.is_string()) return problem(path, "expected a string");
            at_least(v.as_string().size(), rules.if_contains("min_len"), "characters", path);
        } else if (kind == "bool") {
            if (!v.is_bool()) problem(path, "expected true or false");
        } else if (kind == "double" || kind == "float") {
            if (!v.is_number()) problem(path, "expected a number");
        } else {
            integer(v, kind, rules, path);
        }
    }

    void integer(const json::value& v, const std::string& kind, const json::object& rules, const std::string& path) {
        const bool is_unsigned = kind[0] == 'u';
        const bool is_64 = kind.find("64") != std::string::npos;
        // proto3 JSON writes 64-bit integers as strings; parsers take both.
        if (is_64 && v.is_string() && std::regex_match(std::string(v.as_string()), std::regex("-?[0-9]+"))) return;
        if (!v.is_int64() && !v.is_uint64()) return problem(path, "expected an integer (" + kind + ")");
        if (is_unsigned && v.is_int64() && v.as_int64() < 0) return problem(path, "negative value for " + kind);
        bounds(v.to_number<double>(), rules, path);
    }

    void at_least(std::size_t size, const json::value* min, const char* what, const std::string& path) {
        if (min != nullptr && size < min->to_number<std::size_t>())
            problem(path, "at least " + json::serialize(*min) + " " + what);
    }

    void bounds(double n, const json::object& rules, const std::string& path) {
        for (const char* key : {"gt", "gte", "lt", "lte"}) {
            const auto* b = rules.if_contains(key);
            if (b == nullptr) continue;
            const double limit = b->to_number<double>();
            const std::string op(key);
            const bool ok = op == "gt" ? n > limit : op == "gte" ? n >= limit : op == "lt" ? n < limit : n <= limit;
            if (!ok) problem(path, "must be " + op + " " + json::serialize(*b));
        }
    }

    void enum_value(const json::value& v, const std::string& type, const std::string& path) {
        if (v.is_int64() || v.is_uint64()) return;
        if (!v.is_string()) return problem(path, "expected an enum name of " + type);
        for (const auto& name : schema().at("enums").at(type).as_array())
            if (name == v) return;
        problem(path, json::serialize(v) + " is not a value of " + type);
    }

    void well_known(const json::value& v, const std::string& type, const std::string& path) {
        const std::string name = type.substr(std::string("google.protobuf.").size());
        if (name == "Any") return any(v, path);
        if (name == "Duration") {
            static const std::regex kDuration("-?[0-9]+(\\.[0-9]{1,9})?s");
            if (!v.is_string() || !std::regex_match(std::string(v.as_string()), kDuration))
                problem(path, "expected a duration string like \"5s\"");
        } else if (name == "BoolValue") {
            if (!v.is_bool()) problem(path, "expected true or false (BoolValue)");
        } else if (name == "StringValue" || name == "BytesValue" || name == "Timestamp") {
            if (!v.is_string()) problem(path, "expected a string (" + name + ")");
        } else if (name == "UInt32Value" || name == "UInt64Value") {
            integer(v, name == "UInt32Value" ? "uint32" : "uint64", {}, path);
        } else if (name == "Int32Value" || name == "Int64Value") {
            integer(v, name == "Int32Value" ? "int32" : "int64", {}, path);
        } else if (name == "DoubleValue" || name == "FloatValue") {
            if (!v.is_number()) problem(path, "expected a number (" + name + ")");
        } else if (name == "Struct" || name == "Empty") {
            if (!v.is_object()) problem(path, "expected an object (" + name + ")");
        } else if (name == "ListValue") {
            if (!v.is_array()) problem(path, "expected an array (ListValue)");
        } else if (name != "Value") {
            problem(path, "well-known type " + type + " is not handled by the checker");
        }
    }

    // google.protobuf.Any: {"@type": "type.googleapis.com/<message>", <its fields>}.
    void any(const json::value& v, const std::string& path) {
        const auto* url = v.is_object() ? v.as_object().if_contains("@type") : nullptr;
        if (url == nullptr || !url->is_string()) return problem(path, "a typed_config needs \"@type\"");
        const std::string text(url->as_string());
        if (text.rfind(kAnyPrefix, 0) != 0)
            return problem(path + ".@type", "expected " + std::string(kAnyPrefix) + "<message>");
        message(v, text.substr(std::string(kAnyPrefix).size()), path);
    }

    void problem(const std::string& path, const std::string& what) {
        out_.push_back((path.empty() ? "(root)" : path) + ": " + what);
    }

    std::vector<std::string>& out_;
};

}  // namespace

std::vector<std::string> envoy_schema_problems(const boost::json::value& doc, const std::string& message_type) {
    std::vector<std::string> out;
    Checker(out).message(doc, message_type, "");
    return out;
}

}  // namespace stand_envoy::test
