#include "loader/schema_check.hpp"

#include "text/number_format.hpp"

#include <boost/json.hpp>

#include <regex>

namespace stand::loader {

namespace json = boost::json;

namespace {

// A pattern is matched against at most this many characters: std::regex
// recurses once per character it matches (a 40,000-character "dir" against
// "^.+$" overflowed the stack), and no path Linux takes is longer (PATH_MAX).
constexpr std::size_t kPatternTextMax = 4096;

// A longer string is named by its length in a message, not quoted whole.
constexpr std::size_t kQuotedTextMax = 256;

// JSON text, with doubles as written by people (2.5, not 2.5E0).
std::string value_text(const json::value& v) {
    if (v.is_string() && v.get_string().size() > kQuotedTextMax) return std::to_string(v.get_string().size()) + " characters";
    if (!v.is_double()) return json::serialize(v);
    return text::format_exact(v.get_double());
}

bool has_type(const json::value& v, std::string_view type) {
    if (type == "string") return v.is_string();
    if (type == "integer") return v.is_int64() || v.is_uint64();
    if (type == "number") return v.is_number();
    if (type == "boolean") return v.is_bool();
    if (type == "array") return v.is_array();
    if (type == "object") return v.is_object();
    if (type == "null") return v.is_null();
    return true;  // an unknown type word: not ours to judge
}

std::string types_text(const json::value& type) {
    if (type.is_string()) return std::string(type.get_string());
    std::string out;
    if (type.is_array())
        for (const auto& t : type.get_array())
            if (t.is_string()) out += (out.empty() ? "" : " or ") + std::string(t.get_string());
    return out;
}

// What `value` breaks in one schema object (not its properties), or "".
std::string value_problem(const json::value& value, const json::object& s);

bool fits(const json::value& value, const json::value& schema) {
    return !schema.is_object() || value_problem(value, schema.get_object()).empty();
}

// "a number 1..64", "a number at least 1", or "" for no bounds.
std::string range_text(const json::object& s) {
    const json::value* min = s.if_contains("minimum");
    const json::value* max = s.if_contains("maximum");
    if (min && max) return "a number " + json::serialize(*min) + ".." + json::serialize(*max);
    if (min) return "a number at least " + json::serialize(*min);
    if (max) return "a number at most " + json::serialize(*max);
    return {};
}

std::string bounds_problem(const json::value& value, const json::object& s) {
    if (!value.is_number()) return {};
    const double v = value.to_number<double>();
    const json::value* min = s.if_contains("minimum");
    const json::value* max = s.if_contains("maximum");
    const bool low = min && min->is_number() && v < min->to_number<double>();
    const bool high = max && max->is_number() && v > max->to_number<double>();
    return low || high ? range_text(s) : std::string();
}

std::string value_problem(const json::value& value, const json::object& s) {
    if (const json::value* c = s.if_contains("const"); c && value != *c) return json::serialize(*c);
    if (const json::value* t = s.if_contains("type")) {
        bool any = t->is_string() && has_type(value, t->get_string());
        if (t->is_array())
            for (const auto& one : t->get_array()) any |= one.is_string() && has_type(value, one.get_string());
        if (!any) return types_text(*t);
    }
    if (const json::value* e = s.if_contains("enum"); e && e->is_array()) {
        bool listed = false;
        for (const auto& one : e->get_array()) listed |= one == value;
        if (!listed) return "one of " + json::serialize(*e);
    }
    if (const json::value* p = s.if_contains("pattern"); p && p->is_string() && value.is_string()) {
        const std::string matching = "text matching " + json::serialize(*p);
        if (value.get_string().size() > kPatternTextMax)
            return matching + " of at most " + std::to_string(kPatternTextMax) + " characters";
        try {
            if (!std::regex_search(std::string(value.get_string()), std::regex(std::string(p->get_string()))))
                return matching;
        } catch (const std::regex_error&) {
        }
    }
    if (std::string b = bounds_problem(value, s); !b.empty()) return b;
    if (const json::value* one_of = s.if_contains("oneOf"); one_of && one_of->is_array()) {
        bool any = false;
        std::string what;
        for (const auto& branch : one_of->get_array()) {
            any |= fits(value, branch);
            if (branch.is_object())
                what += (what.empty() ? "" : ", or ") + (branch.get_object().contains("const")
                                                             ? json::serialize(branch.at("const"))
                                                             : range_text(branch.get_object()));
        }
        if (!any) return what;
    }
    if (const json::value* items = s.if_contains("items"); items && value.is_array())
        for (const auto& item : value.get_array())
            if (!fits(item, *items)) return "an array of " + types_text(items->at("type"));
    return {};
}

void check(const json::value& value, const json::value& schema, const std::string& key, std::vector<std::string>& out) {
    if (!schema.is_object()) return;
    const json::object& s = schema.get_object();
    if (std::string why = value_problem(value, s); !why.empty()) {
        out.push_back((key.empty() ? "" : key + ": ") + "expected " + why + ", got " + value_text(value));
        return;
    }
    if (!value.is_object()) return;
    const json::value* props = s.if_contains("properties");
    const json::value* extra = s.if_contains("additionalProperties");
    for (const auto& [name, v] : value.get_object()) {
        const std::string at = key.empty() ? std::string(name) : key + "." + std::string(name);
        const json::value* prop = props && props->is_object() ? props->get_object().if_contains(name) : nullptr;
        if (prop) check(v, *prop, at, out);
        else if (extra && extra->is_bool() && !extra->get_bool()) {
            std::string known;
            if (props && props->is_object())
                for (const auto& [k, _] : props->get_object()) known += (known.empty() ? "" : ", ") + std::string(k);
            out.push_back(at + ": unknown key (known: " + (known.empty() ? "none" : known) + ")");
        } else if (extra && extra->is_object()) {
            check(v, *extra, at, out);
        }
    }
}

bool holds_placeholder(const json::value& v) {
    if (v.is_string()) return v.get_string().find("${") != json::string::npos;
    if (v.is_array())
        for (const auto& item : v.get_array())
            if (holds_placeholder(item)) return true;
    return false;
}

// `config` with each value the plugin fills in itself as null, and the
// keys of those values ("a.b") in `placeholders`.
json::object nulled_placeholders(const json::object& config, const std::string& prefix,
                                 std::vector<std::string>& placeholders) {
    json::object out;
    for (const auto& [key, v] : config) {
        const std::string at = prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
        if (holds_placeholder(v)) {
            placeholders.push_back(at);
            out.emplace(key, nullptr);
        } else {
            out.emplace(key, v.is_object() ? json::value(nulled_placeholders(v.get_object(), at, placeholders)) : v);
        }
    }
    return out;
}

}  // namespace

std::vector<std::string> config_problems(const json::object& config, std::string_view schema_text) {
    json::error_code ec;
    const json::value schema = json::parse(schema_text, ec);
    if (ec || !schema.is_object()) return {};
    // A placeholder's value is the plugin's to judge; its key is still checked.
    std::vector<std::string> placeholders, out;
    for (auto& problem : schema_problems(nulled_placeholders(config, "", placeholders), schema)) {
        bool value_of_placeholder = false;
        for (const auto& key : placeholders) value_of_placeholder |= problem.rfind(key + ": expected ", 0) == 0;
        if (!value_of_placeholder) out.push_back(std::move(problem));
    }
    return out;
}

std::vector<std::string> schema_problems(const json::value& value, const json::value& schema) {
    std::vector<std::string> out;
    check(value, schema, "", out);
    return out;
}

}  // namespace stand::loader
