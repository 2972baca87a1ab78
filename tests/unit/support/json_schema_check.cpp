#include "json_schema_check.hpp"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace stand::test {
namespace {

namespace json = boost::json;

// Keywords that only describe: nothing to check.
const std::set<std::string> kAnnotations{"$schema", "$id", "$defs", "definitions", "title", "description",
                                         "default", "examples", "$comment", "readOnly", "writeOnly"};
// Checked together, member by member, in check_members().
const std::set<std::string> kMemberKeywords{"properties", "patternProperties", "additionalProperties"};

class Checker {
public:
    explicit Checker(const json::object& root) : root_(root) {}

    void check(const json::value& v, const json::object& schema, const std::string& path,
               std::vector<std::string>& out) const {
        if (const auto* ref = schema.if_contains("$ref")) {
            // draft-07: a $ref's siblings are ignored.
            check(v, resolve(std::string(ref->as_string())), path, out);
            return;
        }
        for (const auto& kv : schema) {
            const std::string key(kv.key());
            if (kAnnotations.count(key) != 0 || kMemberKeywords.count(key) != 0) continue;
            if (key == "type") check_type(v, kv.value(), path, out);
            else if (key == "required") check_required(v, kv.value().as_array(), path, out);
            else if (key == "items") check_items(v, kv.value().as_object(), path, out);
            else if (key == "minItems") check_min_items(v, kv.value().to_number<std::int64_t>(), path, out);
            else if (key == "minimum" || key == "maximum")
                check_bound(v, key, kv.value().to_number<double>(), path, out);
            else if (key == "oneOf") check_one_of(v, kv.value().as_array(), path, out);
            else if (key == "enum") check_enum(v, kv.value().as_array(), path, out);
            else if (key == "const") check_enum(v, json::array{kv.value()}, path, out);
            else if (key == "pattern") check_pattern(v, std::string(kv.value().as_string()), path, out);
            else out.push_back(path + ": the checker does not know the schema keyword '" + key + "'");
        }
        if (v.is_object()) check_members(v.as_object(), schema, path, out);
    }

private:
    const json::object& resolve(const std::string& ref) const {
        for (const char* prefix : {"#/$defs/", "#/definitions/"}) {
            const std::string p(prefix);
            if (ref.rfind(p, 0) != 0) continue;
            const auto* defs = root_.if_contains(p.substr(2, p.size() - 3));
            const auto* target = defs ? defs->as_object().if_contains(ref.substr(p.size())) : nullptr;
            if (target != nullptr) return target->as_object();
        }
        throw std::runtime_error("unresolvable $ref " + ref);
    }

    static bool has_type(const json::value& v, const std::string& type) {
        if (type == "object") return v.is_object();
        if (type == "array") return v.is_array();
        if (type == "string") return v.is_string();
        if (type == "boolean") return v.is_bool();
        if (type == "null") return v.is_null();
        if (type == "number") return v.is_number();
        if (type == "integer") return v.is_int64() || v.is_uint64();
        throw std::runtime_error("unknown JSON Schema type " + type);
    }

    static void check_type(const json::value& v, const json::value& type, const std::string& path,
                           std::vector<std::string>& out) {
        std::vector<std::string> allowed;
        if (type.is_string()) allowed.emplace_back(type.as_string());
        else
            for (const auto& t : type.as_array()) allowed.emplace_back(t.as_string());
        for (const auto& t : allowed)
            if (has_type(v, t)) return;
        std::string list;
        for (const auto& t : allowed) list += (list.empty() ? "" : " or ") + t;
        out.push_back(path + ": expected " + list + ", got " + json::serialize(v));
    }

    static void check_required(const json::value& v, const json::array& required, const std::string& path,
                               std::vector<std::string>& out) {
        if (!v.is_object()) return;
        for (const auto& name : required)
            if (!v.as_object().contains(name.as_string()))
                out.push_back(path + ": '" + std::string(name.as_string()) + "' is required");
    }

    void check_items(const json::value& v, const json::object& items, const std::string& path,
                     std::vector<std::string>& out) const {
        if (!v.is_array()) return;
        for (std::size_t i = 0; i < v.as_array().size(); ++i)
            check(v.as_array()[i], items, path + "[" + std::to_string(i) + "]", out);
    }

    static void check_min_items(const json::value& v, std::int64_t min, const std::string& path,
                                std::vector<std::string>& out) {
        if (v.is_array() && static_cast<std::int64_t>(v.as_array().size()) < min)
            out.push_back(path + ": at least " + std::to_string(min) + " items");
    }

    static void check_bound(const json::value& v, const std::string& key, double bound, const std::string& path,
                            std::vector<std::string>& out) {
        if (!v.is_number()) return;
        const double n = v.to_number<double>();
        if (key == "minimum" ? n < bound : n > bound)
            out.push_back(path + ": " + json::serialize(v) + " is out of " + key + " " + std::to_string(bound));
    }

    static void check_enum(const json::value& v, const json::array& allowed, const std::string& path,
                           std::vector<std::string>& out) {
        for (const auto& a : allowed)
            if (a == v) return;
        out.push_back(path + ": " + json::serialize(v) + " is not one of " + json::serialize(allowed));
    }

    static void check_pattern(const json::value& v, const std::string& pattern, const std::string& path,
                              std::vector<std::string>& out) {
        if (v.is_string() && !std::regex_search(std::string(v.as_string()), std::regex(pattern)))
            out.push_back(path + ": " + json::serialize(v) + " does not match " + pattern);
    }

    void check_one_of(const json::value& v, const json::array& options, const std::string& path,
                      std::vector<std::string>& out) const {
        int matching = 0;
        for (const auto& option : options) {
            std::vector<std::string> problems;
            check(v, option.as_object(), path, problems);
            matching += problems.empty() ? 1 : 0;
        }
        if (matching != 1)
            out.push_back(path + ": matches " + std::to_string(matching) + " of the oneOf schemas, not exactly 1");
    }

    void check_members(const json::object& o, const json::object& schema, const std::string& path,
                       std::vector<std::string>& out) const {
        const auto* properties = schema.if_contains("properties");
        const auto* patterns = schema.if_contains("patternProperties");
        const auto* additional = schema.if_contains("additionalProperties");
        for (const auto& kv : o) {
            const std::string key(kv.key());
            const std::string at = path.empty() ? key : path + "." + key;
            bool matched = false;
            if (properties != nullptr)
                if (const auto* p = properties->as_object().if_contains(key)) {
                    check(kv.value(), p->as_object(), at, out);
                    matched = true;
                }
            if (patterns != nullptr)
                for (const auto& pattern : patterns->as_object())
                    if (std::regex_search(key, std::regex(std::string(pattern.key())))) {
                        check(kv.value(), pattern.value().as_object(), at, out);
                        matched = true;
                    }
            if (matched || additional == nullptr) continue;
            if (additional->is_bool()) {
                if (!additional->as_bool()) out.push_back(at + ": not allowed here");
            } else {
                check(kv.value(), additional->as_object(), at, out);
            }
        }
    }

    const json::object& root_;
};

}  // namespace

std::vector<std::string> json_schema_problems(const boost::json::value& doc, const boost::json::object& schema) {
    std::vector<std::string> out;
    Checker(schema).check(doc, schema, "", out);
    return out;
}

boost::json::object read_json_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    std::stringstream text;
    text << in.rdbuf();
    return boost::json::parse(text.str()).as_object();
}

}  // namespace stand::test
