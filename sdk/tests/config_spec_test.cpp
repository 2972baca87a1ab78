// stand/cpp/config_spec.hpp: one declaration gives the reader and the JSON
// Schema; the reader's defaults and bounds are the schema's.
#include <stand/cpp/config_spec.hpp>
#include <stand/cpp/plugin.hpp>

#include "json_schema_check.hpp"

#include <doctest/doctest.h>

#include <functional>

namespace json = boost::json;
using stand::cpp::ConfigError;
using stand::cpp::ConfigSpec;
using stand::cpp::ConfigValues;
using stand::cpp::Error;

namespace {

ConfigSpec sample_spec() {
    ConfigSpec s;
    s.string("host", "the address").by_default("127.0.0.1");
    s.integer("port", "the port").range(1, 65535).by_default(8080);
    s.boolean("tls", "serve TLS").by_default(false);
    s.choice("mode", {"native", "docker"}, "how it runs").by_default("native");
    s.strings("command", "the argv").min_items(1).by_default(json::array{"srv", "--flag"});
    s.string_map("env", "added environment");
    s.string("body", "the answer").pattern("^[a-z]{0,8}$", "only a-z, at most 8").by_default("ok");
    s.string("password", "generated when absent; never logged").secret();
    s.integer("threads", "absent or 0: the tool's default").range(1, 64).zero_is_unset();
    s.integer("size_mib", "a size, or \"ram\"").range(1, 1024).or_word("ram").by_default(16);
    s.integer("block", "default: the job's").range(512, 4096);
    return s;
}

// Reads every key of sample_spec() (as a plugin does) and returns the values as JSON.
json::object read_all(const ConfigSpec& spec, const json::object& config) {
    auto c = spec.read(config);
    json::object out{{"host", c.string("host")},
                     {"port", c.integer("port")},
                     {"tls", c.boolean("tls")},
                     {"mode", c.string("mode")},
                     {"command", json::value_from(c.strings("command"))},
                     {"env", json::value_from(c.string_map("env"))},
                     {"body", c.string("body")},
                     {"password", c.string("password")},
                     {"size_mib", c.integer("size_mib")}};
    if (auto t = c.optional_integer("threads")) out["threads"] = *t;
    if (auto b = c.optional_integer("block")) out["block"] = *b;
    c.finish();
    return out;
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

std::string config_error(const json::object& config) {
    const ConfigSpec spec = sample_spec();
    return error_of([&] { read_all(spec, config); });
}

}  // namespace

TEST_CASE("config spec: the schema has one property per key, with type, description and default") {
    const json::object schema = sample_spec().schema();
    CHECK(json::serialize(schema).rfind(R"({"type":"object","additionalProperties":false,"properties":{)", 0) == 0);
    const auto& props = schema.at("properties").as_object();
    CHECK(props.size() == sample_spec().keys().size());
    for (const auto& [name, p] : props) {
        INFO(std::string(name));
        CHECK(p.as_object().contains("type"));
        CHECK_FALSE(p.at("description").as_string().empty());
    }
    CHECK(props.at("port") == json::parse(R"({"type":"integer","minimum":1,"maximum":65535,"default":8080,"description":"the port"})"));
    CHECK(props.at("mode").at("enum") == json::array{"native", "docker"});
    CHECK(props.at("command").at("minItems") == 1);
    CHECK(props.at("env").at("additionalProperties") == json::object{{"type", "string"}});
    CHECK(props.at("body").at("pattern") == "^[a-z]{0,8}$");
    CHECK(props.at("password").at("writeOnly") == true);
    CHECK_FALSE(props.at("password").as_object().contains("default"));
    CHECK(props.at("threads").at("oneOf") == json::parse(R"([{"const":0},{"minimum":1,"maximum":64}])"));
    CHECK(props.at("size_mib").at("oneOf") ==
          json::parse(R"([{"type":"integer","minimum":1,"maximum":1024},{"const":"ram"}])"));
}

TEST_CASE("config spec: what the reader uses when a key is absent is the schema's default") {
    const ConfigSpec spec = sample_spec();
    const json::object read = read_all(spec, {});
    json::object defaults;
    const json::object schema = spec.schema();
    for (const auto& [name, p] : schema.at("properties").as_object())
        if (const auto* d = p.as_object().if_contains("default")) {
            CHECK(read.at(name) == *d);
            defaults[name] = *d;
        }
    // keys without a default read as empty, or as unset
    CHECK(read.at("password") == "");
    CHECK(read.at("env") == json::object{});
    CHECK_FALSE(read.contains("threads"));
    CHECK_FALSE(read.contains("block"));
    // the defaults spelled out are valid against the schema and read the same
    CHECK(stand::test::json_schema_problems(defaults, spec.schema()).empty());
    CHECK(read_all(spec, defaults) == read);
}

TEST_CASE("config spec: the bounds the reader enforces are the schema's") {
    const ConfigSpec spec = sample_spec();
    const json::object schema = spec.schema();
    const auto& props = schema.at("properties").as_object();
    for (const char* key : {"port", "block"}) {
        INFO(key);
        const auto lo = props.at(key).at("minimum").as_int64(), hi = props.at(key).at("maximum").as_int64();
        CHECK(config_error({{key, lo}}).empty());
        CHECK(config_error({{key, hi}}).empty());
        const std::string range = " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
        CHECK(config_error({{key, lo - 1}}) == "config." + std::string(key) + ": " + std::to_string(lo - 1) + range);
        CHECK(config_error({{key, hi + 1}}) == "config." + std::string(key) + ": " + std::to_string(hi + 1) + range);
    }
    for (const auto& choice : props.at("mode").at("enum").as_array()) CHECK(config_error({{"mode", choice}}).empty());
    CHECK(config_error({{"mode", "vm"}}) == R"(config.mode: "vm" (expected "native" or "docker"))");
    CHECK(config_error({{"body", "abc"}}).empty());
    CHECK(config_error({{"body", "ABC"}}) == "config.body: only a-z, at most 8");
    CHECK(config_error({{"command", json::array{}}}) == "config.command: must not be empty");
    CHECK(config_error({{"command", json::array{"a", 1}}}) == "config.command: expected an array of strings");
    CHECK(config_error({{"env", {{"A", 1}}}}) == "config.env.A: expected a string");
    CHECK(config_error({{"threads", 0}}).empty());
    CHECK(read_all(sample_spec(), {{"threads", 0}}).contains("threads") == false);
    CHECK(config_error({{"threads", 65}}) == "config.threads: 65 is out of range [1, 64]");
    CHECK(config_error({{"size_mib", "rom"}}) == R"(config.size_mib: expected an integer or "ram")");
    // ConfigReader's words for types and unknown keys
    CHECK(config_error({{"port", "80"}}) == "config.port: expected an integer");
    CHECK(config_error({{"tls", 1}}) == "config.tls: expected true or false");
    CHECK(config_error({{"prot", 80}}) == "config.prot: unknown key");
    // every declared value passes the schema too
    const json::object good{{"port", 1}, {"mode", "docker"}, {"body", "abc"}, {"threads", 0}, {"size_mib", "ram"}};
    CHECK(stand::test::json_schema_problems(good, spec.schema()).empty());
    CHECK_FALSE(stand::test::json_schema_problems(json::object{{"port", 0}}, spec.schema()).empty());
    CHECK_FALSE(stand::test::json_schema_problems(json::object{{"mode", "vm"}}, spec.schema()).empty());
}

TEST_CASE("config spec: a plugin's misuse is an internal error naming the key") {
    const ConfigSpec spec = sample_spec();
    auto internal = [](const std::function<void()>& f) {
        try {
            f();
        } catch (const ConfigError& e) {
            return std::string("ConfigError: ") + e.what();
        } catch (const Error& e) {
            CHECK(e.code() == STAND_E_INTERNAL);
            return std::string(e.what());
        }
        return std::string();
    };
    const json::object empty;
    CHECK(internal([&] { spec.read(empty).string("hots"); }) == "config.hots: read but not declared");
    CHECK(internal([&] { spec.read(empty).integer("host"); }) == "config.host: read as another type than declared");
    CHECK(internal([&] { spec.read(empty).integer("block"); }) ==
          "config.block: no default declared: read it with optional_integer()");
    CHECK(internal([&] { spec.read(empty).optional_integer("port"); }) ==
          "config.port: has a declared default: read it without optional_");
    CHECK(internal([&] { spec.read(empty).finish(); }) == "config.host: declared but never read");
    CHECK(internal([] { ConfigSpec s; s.integer("port", "p").range(1, 10).by_default(0); }) ==
          "config declaration 'port': its default is refused: default.port: 0 is out of range [1, 10]");
    CHECK(internal([] { ConfigSpec s; s.string("a", ""); }) == "config declaration 'a': has no description");
    CHECK(internal([] { ConfigSpec s; s.string("a", "x"); s.boolean("a", "y"); }) ==
          "config declaration 'a': declared twice");
    CHECK(internal([] { ConfigSpec s; s.boolean("a", "x").range(1, 2); }) ==
          "config declaration 'a': range() does not apply to its type");
    CHECK(internal([&] { spec.read(json::object{{"size_mib", "ram"}}).integer("size_mib"); }) ==
          "config declaration 'size_mib': \"ram\" is the plugin's to resolve before reading");
}

TEST_CASE("config spec: the descriptor's schema text, and a declaration that fails") {
    const stand::cpp::detail::SchemaText from_spec([]() -> const ConfigSpec& {
        static const ConfigSpec s = sample_spec();
        return s;
    });
    CHECK(json::parse(from_spec.c_str()) == sample_spec().schema());
    const stand::cpp::detail::SchemaText literal([] { return R"({"type":"object"})"; });
    CHECK(std::string(literal.c_str()) == R"({"type":"object"})");
    const stand::cpp::detail::SchemaText failed([]() -> ConfigSpec {
        ConfigSpec s;
        s.integer("port", "p").range(1, 10).by_default(99);
        return s;
    });
    CHECK(std::string(failed.c_str()).rfind("config declaration failed: config declaration 'port': ", 0) == 0);
}
