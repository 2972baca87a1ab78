// stand C++ helpers: a plugin's config declared once, key by key; the
// declarations give both the reader and the descriptor's JSON Schema, so the
// schema and the defaults the plugin uses cannot disagree.
//
//   const stand::cpp::ConfigSpec& config_spec() {
//       static const stand::cpp::ConfigSpec spec = [] {
//           stand::cpp::ConfigSpec s;
//           s.integer("port", "the listen port").range(1, 65535).by_default(8080);
//           s.string("binary", "the server's executable").by_default("/usr/sbin/nginx");
//           s.choice("mode", {"native", "docker"}, "how it runs").by_default("native");
//           s.string("password", "generated when absent; never logged").secret();
//           return s;
//       }();
//       return spec;
//   }
//   My::My(const stand::cpp::Host& host, const boost::json::object& config) {
//       auto cfg = config_spec().read(config);
//       port_ = cfg.integer("port");          // 8080 when absent; range checked
//       password_ = cfg.string("password");   // "" when absent (no default declared)
//       cfg.finish();                         // unknown keys are errors naming them
//   }
//   STAND_CPP_PLUGIN(My, "my", "My adapter", "0.1.0", "...", config_spec())
//
// Every key has a type, a description and, where it has one, a default;
// bounds (range, enum, pattern, minItems) are enforced by the reader and
// written into the schema. The schema is an object with
// "additionalProperties": false and one property per key, in declaration
// order: {"type", "enum"|"minimum"/"maximum"|"oneOf"|"items"/"minItems"|
// "additionalProperties"|"pattern", "default", "description", "writeOnly"}.
//
// Secrets: a key marked secret() (a password, a token) carries
// "writeOnly": true (JSON Schema's "sent, never given back"). A plugin never
// logs or reports its value, and a host or tool that shows a config redacts
// the keys so marked. Write "never logged" in the description too, for people.
//
// Defaults that are computed at run time (the folder of another key, the
// CPU count, a job's own block size) are not declared: the key has no
// default, its description says what happens when it is absent, and the
// plugin reads it with optional_string() / optional_integer() /
// optional_strings(). A string, list or map key without a default reads as
// empty ("", [], {}) with string() / strings() / string_map().
//
// Errors a user can cause are ConfigError naming path.key, worded as
// ConfigReader words them ("config.port: 70000 is out of range [1, 65535]",
// "config.prot: unknown key", "config.mode: \"x\" (expected \"native\" or
// \"docker\")"). Misuse by the plugin (reading an undeclared key, a key as
// another type, a declared key never read before finish(), a default outside
// the key's own bounds) is Error(STAND_E_INTERNAL) naming the key: the
// plugin's tests meet it the first time the code runs.
//
// ConfigReader (config.hpp) stays for what has no fixed shape (nested
// objects read as they come, e.g. the proxy knobs).
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "config.hpp"
#include "error.hpp"

namespace stand::cpp {

class ConfigValues;

// One declared key. Setters return the key for chaining and refuse what the
// key's type cannot take (Error(STAND_E_INTERNAL)).
class ConfigKey {
public:
    enum class Type { string, integer, boolean, strings, string_map };

    ConfigKey(std::string name, Type type, std::string description)
        : name_(std::move(name)), type_(type), description_(std::move(description)) {
        if (description_.empty()) misuse("has no description");
    }

    // The value used when the key is absent (a number, bool, string, list
    // of strings or boost::json::array); it must pass the key's own checks.
    template <class T>
    ConfigKey& by_default(const T& v) {
        if constexpr (std::is_same_v<T, std::string>) default_ = boost::json::value(boost::json::string_view(v));
        else if constexpr (std::is_same_v<T, std::vector<std::string>>) default_ = strings_value(v);
        else default_ = boost::json::value(v);
        if (default_->is_uint64() && default_->get_uint64() <= INT64_MAX)  // one kind for every integer
            default_ = static_cast<std::int64_t>(default_->get_uint64());
        check_default();
        return *this;
    }
    // Integers: the allowed range (inclusive).
    ConfigKey& range(std::int64_t min, std::int64_t max) {
        expect(Type::integer, "range");
        min_ = min;
        max_ = max;
        check_default();
        return *this;
    }
    // Integers: 0 means "unset, the tool's own default" (optional_integer()
    // answers nullopt); any other value is range checked.
    ConfigKey& zero_is_unset() {
        expect(Type::integer, "zero_is_unset");
        zero_is_unset_ = true;
        return *this;
    }
    // Integers: one word also allowed in place of a number ("ram"), which
    // the plugin resolves into a number before it reads the key.
    ConfigKey& or_word(std::string word) {
        expect(Type::integer, "or_word");
        word_ = std::move(word);
        return *this;
    }
    // Strings: one of these (JSON Schema "enum").
    ConfigKey& one_of(std::vector<std::string> choices) {
        expect(Type::string, "one_of");
        choices_ = std::move(choices);
        check_default();
        return *this;
    }
    // Strings: an ECMAScript regular expression the whole value must match
    // (write it anchored, ^...$, as JSON Schema searches), and what the error says.
    ConfigKey& pattern(std::string regex, std::string requirement) {
        expect(Type::string, "pattern");
        pattern_ = std::move(regex);
        requirement_ = std::move(requirement);
        check_default();
        return *this;
    }
    // Lists: at least this many items ("must not be empty" for 1).
    ConfigKey& min_items(std::size_t n) {
        expect(Type::strings, "min_items");
        min_items_ = n;
        check_default();
        return *this;
    }
    // A password or token: "writeOnly": true in the schema; never log it.
    ConfigKey& secret() {
        secret_ = true;
        return *this;
    }
    ConfigKey& describe(std::string description) {
        if (description.empty()) misuse("has no description");
        description_ = std::move(description);
        return *this;
    }

    const std::string& name() const noexcept { return name_; }
    Type type() const noexcept { return type_; }
    const std::string& description() const noexcept { return description_; }
    const std::optional<boost::json::value>& default_value() const noexcept { return default_; }
    bool is_secret() const noexcept { return secret_; }
    bool zero_means_unset() const noexcept { return zero_is_unset_; }

    // This key's property in the JSON Schema.
    boost::json::object schema() const {
        namespace json = boost::json;
        json::object p;
        switch (type_) {
            case Type::string:
                p["type"] = "string";
                if (!choices_.empty()) p["enum"] = json::value_from(choices_);
                if (!pattern_.empty()) p["pattern"] = pattern_;
                break;
            case Type::integer: {
                auto bounds = [&](json::object o) {
                    if (min_ != INT64_MIN) o["minimum"] = min_;
                    if (max_ != INT64_MAX) o["maximum"] = max_;
                    return o;
                };
                if (zero_is_unset_) {
                    p["type"] = "integer";
                    p["oneOf"] = json::array{json::object{{"const", 0}}, bounds({})};
                } else if (!word_.empty()) {
                    p["type"] = json::array{"integer", "string"};
                    p["oneOf"] = json::array{bounds({{"type", "integer"}}), json::object{{"const", word_}}};
                } else {
                    p = bounds({{"type", "integer"}});
                }
                break;
            }
            case Type::boolean: p["type"] = "boolean"; break;
            case Type::strings:
                p["type"] = "array";
                p["items"] = {{"type", "string"}};
                if (min_items_ > 0) p["minItems"] = min_items_;
                break;
            case Type::string_map:
                p["type"] = "object";
                p["additionalProperties"] = {{"type", "string"}};
                break;
        }
        if (default_) p["default"] = *default_;
        p["description"] = description_;
        if (secret_) p["writeOnly"] = true;
        return p;
    }

private:
    static boost::json::value strings_value(const std::vector<std::string>& list) {
        boost::json::array a;
        for (const auto& item : list) a.emplace_back(item);
        return a;
    }

    friend class ConfigValues;

    [[noreturn]] void misuse(const std::string& what) const {
        throw Error(STAND_E_INTERNAL, "config declaration '" + name_ + "': " + what);
    }
    void expect(Type t, const char* setter) const {
        if (type_ != t) misuse(std::string(setter) + "() does not apply to its type");
    }
    void check_default() const {
        if (!default_) return;
        try {
            boost::json::object one{{name_, *default_}};
            ConfigReader r(one, "default");
            read(r, *default_, "default");
        } catch (const ConfigError& e) {
            misuse(std::string("its default is refused: ") + e.what());
        }
    }

    // Reads this key's value `raw` through `r`, checked; the error names `path`.
    boost::json::value read(ConfigReader& r, const boost::json::value& raw, const std::string& path) const {
        namespace json = boost::json;
        const char* key = name_.c_str();
        const std::string at = path + "." + name_;
        switch (type_) {
            case Type::string: {
                std::string s = r.string(key, "");
                if (!choices_.empty() && !is_choice(s)) throw ConfigError(at + ": \"" + s + "\" (expected " + choices_text() + ")");
                if (!pattern_.empty() && !std::regex_search(s, std::regex(pattern_)))
                    throw ConfigError(at + ": " + requirement_);
                return json::value(s);
            }
            case Type::integer: {
                if (!word_.empty() && raw.is_string()) {
                    if (raw.as_string() == word_) misuse("\"" + word_ + "\" is the plugin's to resolve before reading");
                    throw ConfigError(at + ": expected an integer or \"" + word_ + "\"");
                }
                std::int64_t n = r.integer(key, 0);
                if (zero_is_unset_ && n == 0) return json::value(n);
                if (n < min_ || n > max_)
                    throw ConfigError(at + ": " + std::to_string(n) + " is out of range [" + std::to_string(min_) +
                                      ", " + std::to_string(max_) + "]");
                return json::value(n);
            }
            case Type::boolean: return json::value(r.boolean(key, false));
            case Type::strings: {
                const json::array* a = r.array(key);
                for (const auto& v : *a)
                    if (!v.is_string()) throw ConfigError(at + ": expected an array of strings");
                if (a->size() < min_items_)
                    throw ConfigError(at + (min_items_ == 1 ? std::string(": must not be empty")
                                                           : ": needs at least " + std::to_string(min_items_) + " items"));
                return *a;
            }
            case Type::string_map: {
                const json::object* o = r.object(key);
                for (const auto& kv : *o)
                    if (!kv.value().is_string()) throw ConfigError(at + "." + std::string(kv.key()) + ": expected a string");
                return *o;
            }
        }
        misuse("has an unknown type");
    }

    bool is_choice(const std::string& s) const {
        for (const auto& c : choices_)
            if (c == s) return true;
        return false;
    }
    std::string choices_text() const {
        std::string out;
        for (std::size_t i = 0; i < choices_.size(); ++i) {
            if (i > 0) out += i + 1 == choices_.size() ? " or " : ", ";
            out += "\"" + choices_[i] + "\"";
        }
        return out;
    }

    std::string name_;
    Type type_;
    std::string description_;
    std::optional<boost::json::value> default_;
    std::int64_t min_ = INT64_MIN, max_ = INT64_MAX;
    bool zero_is_unset_ = false;
    std::string word_;
    std::vector<std::string> choices_;
    std::string pattern_, requirement_;
    std::size_t min_items_ = 0;
    bool secret_ = false;
};

// The declared keys of one config object (a plugin's config, a probe job's params).
class ConfigSpec {
public:
    ConfigKey& string(std::string name, std::string description) {
        return add(std::move(name), ConfigKey::Type::string, std::move(description));
    }
    // A string that is one of `choices`.
    ConfigKey& choice(std::string name, std::vector<std::string> choices, std::string description) {
        return string(std::move(name), std::move(description)).one_of(std::move(choices));
    }
    ConfigKey& integer(std::string name, std::string description) {
        return add(std::move(name), ConfigKey::Type::integer, std::move(description));
    }
    ConfigKey& boolean(std::string name, std::string description) {
        return add(std::move(name), ConfigKey::Type::boolean, std::move(description));
    }
    // An array of strings (an argv).
    ConfigKey& strings(std::string name, std::string description) {
        return add(std::move(name), ConfigKey::Type::strings, std::move(description));
    }
    // An object whose values are strings (an environment).
    ConfigKey& string_map(std::string name, std::string description) {
        return add(std::move(name), ConfigKey::Type::string_map, std::move(description));
    }

    // A key declared before (by a kit), to change its default or description.
    ConfigKey& key(const std::string& name) {
        for (auto& k : keys_)
            if (k.name() == name) return k;
        throw Error(STAND_E_INTERNAL, "config declaration '" + name + "': not declared");
    }
    const ConfigKey* find(const std::string& name) const {
        for (const auto& k : keys_)
            if (k.name() == name) return &k;
        return nullptr;
    }
    const std::deque<ConfigKey>& keys() const noexcept { return keys_; }

    // {"type":"object","additionalProperties":false,"properties":{...}}.
    boost::json::object schema() const {
        boost::json::object props;
        for (const auto& k : keys_) props[k.name()] = k.schema();
        return {{"type", "object"}, {"additionalProperties", false}, {"properties", std::move(props)}};
    }
    std::string schema_text() const { return boost::json::serialize(schema()); }

    // A reader of `config` against these keys; `path` starts every error.
    inline ConfigValues read(const boost::json::object& config, std::string path = "config") const;

private:
    ConfigKey& add(std::string name, ConfigKey::Type type, std::string description) {
        if (find(name) != nullptr) throw Error(STAND_E_INTERNAL, "config declaration '" + name + "': declared twice");
        return keys_.emplace_back(std::move(name), type, std::move(description));
    }

    std::deque<ConfigKey> keys_;  // a deque: the references add() returns stay valid
};

// Reads the declared keys of one config object. It refers to the spec and
// the object: both must outlive it.
class ConfigValues {
public:
    ConfigValues(const ConfigSpec& spec, const boost::json::object& config, std::string path = "config")
        : spec_(spec), config_(config), reader_(config, path), path_(std::move(path)) {}

    // The value, or the declared default; a string/list/map without one reads as empty.
    std::string string(const char* key) {
        auto v = take(key, ConfigKey::Type::string, true);
        return v ? std::string(v->as_string()) : std::string();
    }
    // The value, or the declared default (an integer must have one).
    std::int64_t integer(const char* key) { return take(key, ConfigKey::Type::integer, false)->as_int64(); }
    bool boolean(const char* key) { return take(key, ConfigKey::Type::boolean, false)->as_bool(); }
    std::vector<std::string> strings(const char* key) {
        auto v = take(key, ConfigKey::Type::strings, true);
        return v ? list(*v) : std::vector<std::string>();
    }
    std::map<std::string, std::string> string_map(const char* key) {
        auto v = take(key, ConfigKey::Type::string_map, true);
        std::map<std::string, std::string> out;
        if (v)
            for (const auto& kv : v->as_object()) out[std::string(kv.key())] = std::string(kv.value().as_string());
        return out;
    }

    // Keys declared without a default: the value, or nullopt when absent
    // (and, for zero_is_unset() integers, when 0).
    std::optional<std::string> optional_string(const char* key) {
        auto v = take_optional(key, ConfigKey::Type::string);
        if (!v) return std::nullopt;
        return std::string(v->as_string());
    }
    std::optional<std::int64_t> optional_integer(const char* key) {
        auto v = take_optional(key, ConfigKey::Type::integer);
        if (!v || (declared(key).zero_means_unset() && v->as_int64() == 0)) return std::nullopt;
        return v->as_int64();
    }
    std::optional<std::vector<std::string>> optional_strings(const char* key) {
        auto v = take_optional(key, ConfigKey::Type::strings);
        if (!v) return std::nullopt;
        return list(*v);
    }

    // Whether the config holds the key (an explicit value, even the default).
    bool given(const char* key) const {
        declared(key);
        return config_.contains(key);
    }
    const std::string& path() const noexcept { return path_; }

    // Throws ConfigError naming the first key that is not declared; then
    // Error(STAND_E_INTERNAL) naming a declared key the plugin never read.
    void finish() const {
        for (const auto& kv : config_)
            if (spec_.find(std::string(kv.key())) == nullptr)
                throw ConfigError(path_ + "." + std::string(kv.key()) + ": unknown key");
        for (const auto& k : spec_.keys())
            if (read_.count(k.name()) == 0)
                throw Error(STAND_E_INTERNAL, path_ + "." + k.name() + ": declared but never read");
    }

private:
    const ConfigKey& declared(const char* key) const {
        if (const ConfigKey* k = spec_.find(key)) return *k;
        throw Error(STAND_E_INTERNAL, path_ + "." + key + ": read but not declared");
    }
    const ConfigKey& marked(const char* key, ConfigKey::Type type) {
        const ConfigKey& k = declared(key);
        if (k.type() != type) throw Error(STAND_E_INTERNAL, path_ + "." + key + ": read as another type than declared");
        read_.insert(k.name());
        return k;
    }
    // The checked value, else the default, else nullopt (allowed only when `may_be_absent`).
    std::optional<boost::json::value> take(const char* key, ConfigKey::Type type, bool may_be_absent) {
        const ConfigKey& k = marked(key, type);
        if (const auto* raw = config_.if_contains(key)) return k.read(reader_, *raw, path_);
        if (k.default_value()) return *k.default_value();
        if (!may_be_absent)
            throw Error(STAND_E_INTERNAL, path_ + "." + key + ": no default declared: read it with optional_" +
                                              (type == ConfigKey::Type::integer ? "integer" : "string") + "()");
        return std::nullopt;
    }
    std::optional<boost::json::value> take_optional(const char* key, ConfigKey::Type type) {
        const ConfigKey& k = marked(key, type);
        if (k.default_value())
            throw Error(STAND_E_INTERNAL, path_ + "." + key + ": has a declared default: read it without optional_");
        const auto* raw = config_.if_contains(key);
        if (raw == nullptr) return std::nullopt;
        return k.read(reader_, *raw, path_);
    }
    static std::vector<std::string> list(const boost::json::value& v) {
        std::vector<std::string> out;
        for (const auto& s : v.as_array()) out.emplace_back(s.as_string());
        return out;
    }

    const ConfigSpec& spec_;
    const boost::json::object& config_;
    ConfigReader reader_;
    std::string path_;
    std::set<std::string> read_;
};

inline ConfigValues ConfigSpec::read(const boost::json::object& config, std::string path) const {
    return ConfigValues(*this, config, std::move(path));
}

}  // namespace stand::cpp
