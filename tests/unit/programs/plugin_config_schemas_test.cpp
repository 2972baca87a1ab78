// Every plugin built in build/plugins: its config schema (and each probe
// job's params schema) has the shape the host shows in `stand info`, every
// property says its type and what it is for, and what the schema says is
// what the plugin does: its defaults are the values it uses (an instance
// made from {} and one made from the defaults spelled out report the same
// facts), its ranges and enums are the ones it enforces, and its secrets
// are marked writeOnly.
#include "host/plugin_host.hpp"
#include "isolation/interface_calls.hpp"
#include "loader/plugin_loader.hpp"
#include "json_schema_check.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <set>

namespace json = boost::json;
using namespace stand;

namespace {

const std::set<std::string> kPropertyKeywords{"type",    "enum",    "const",       "minimum",     "maximum",
                                              "oneOf",   "items",   "minItems",    "pattern",     "default",
                                              "description", "writeOnly", "additionalProperties"};

std::vector<std::filesystem::path> built_plugins() {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(test::build_dir() / "plugins"))
        if (e.path().extension() == ".so") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// The shape of a config or params schema; returns its properties.
const json::object& check_shape(const json::value& schema, const std::string& what) {
    INFO(what);
    REQUIRE(schema.is_object());
    CHECK(schema.at("type") == "object");
    CHECK(schema.at("additionalProperties") == false);
    const auto& props = schema.at("properties").as_object();
    for (const auto& [name, p] : props) {
        INFO(what << "." << std::string(name));
        REQUIRE(p.is_object());
        CHECK(p.as_object().contains("type"));
        const auto* d = p.as_object().if_contains("description");
        CHECK((d != nullptr && d->is_string() && !d->as_string().empty()));
        for (const auto& kv : p.as_object()) CHECK_MESSAGE(kPropertyKeywords.count(kv.key()), kv.key());
        if (const auto* dflt = p.as_object().if_contains("default"))
            CHECK(test::json_schema_problems(*dflt, p.as_object()).empty());
        const std::string n(name);
        const bool secret_name = n.find("password") != std::string::npos || n.find("token") != std::string::npos;
        const bool says_never_logged = d && d->is_string() && d->as_string().find("never logged") != std::string::npos;
        if (secret_name || says_never_logged) CHECK(p.as_object().contains("writeOnly"));
        if (const auto* w = p.as_object().if_contains("writeOnly")) CHECK(*w == true);
    }
    return props;
}

// An instance of a loaded plugin, made in this process with a host of its own.
class Instance {
public:
    Instance(const loader::LoadedPlugin& p, const std::filesystem::path& run_dir, const json::object& config)
        : plugin_(p), host_(p.id, host_config(run_dir)) {
        const std::string text = json::serialize(config);
        char message[2048] = {0};
        stand_error err{sizeof(stand_error), sizeof(message), message};
        code_ = p.entry.create(host_.get(), text.data(), text.size(), &instance_, &err);
        error_ = message;
    }
    ~Instance() {
        if (instance_ != nullptr) plugin_.entry.destroy(instance_);
    }
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;

    bool ok() const { return code_ == STAND_OK && instance_ != nullptr; }
    const std::string& error() const { return error_; }
    isolation::CallOutcome call(const std::string& method, const json::object& args = {}) {
        return isolation::call_interface(plugin_, instance_, method, args);
    }

private:
    static host::HostConfig host_config(const std::filesystem::path& run_dir) {
        host::HostConfig c;
        c.run_dir = run_dir;
        c.log = [](int, const std::string&, const std::string&) {};
        return c;
    }

    const loader::LoadedPlugin& plugin_;
    host::PluginHost host_;
    stand_instance* instance_ = nullptr;
    stand_result code_ = STAND_OK;
    std::string error_;
};

// The error of creating the plugin with `config`, "" when it was made.
std::string create_error(const loader::LoadedPlugin& p, const std::filesystem::path& run_dir,
                         const json::object& config) {
    Instance i(p, run_dir, config);
    return i.ok() ? std::string() : i.error();
}

// Checks the bounds of each integer and enum property on `error_of` (the
// error of using {key: value}, "" when accepted), as `path` names them.
template <class ErrorOf>
void check_bounds(const json::object& props, const std::string& path, ErrorOf error_of, bool check_accepted) {
    for (const auto& [name, p] : props) {
        const std::string key(name);
        INFO(path << "." << key);
        const auto& prop = p.as_object();
        const std::string at = path + "." + key + ": ";
        auto refused = [&](const json::value& v, const std::string& why) { CHECK(error_of(key, v) == at + why); };
        auto accepted = [&](const json::value& v) {  // not refused by its bounds (another rule may apply)
            if (!check_accepted) return;
            const std::string e = error_of(key, v);
            CHECK_MESSAGE((e.find(at) == std::string::npos ||
                           (e.find(" is out of range") == std::string::npos && e.find("(expected ") == std::string::npos)),
                          e);
        };
        const json::object* bounds = &prop;
        if (const auto* one_of = prop.if_contains("oneOf"))  // zero_is_unset: [{"const":0},{bounds}]
            if (one_of->as_array().front().as_object().contains("const") &&
                one_of->as_array().front().at("const") == 0)
                bounds = &one_of->as_array().back().as_object();
        if (bounds->contains("minimum") && bounds->contains("maximum")) {
            const auto lo = bounds->at("minimum").as_int64(), hi = bounds->at("maximum").as_int64();
            const std::string range = " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
            accepted(lo);
            accepted(hi);
            if (bounds == &prop || lo - 1 != 0) refused(lo - 1, std::to_string(lo - 1) + range);
            refused(hi + 1, std::to_string(hi + 1) + range);
        }
        if (const auto* choices = prop.if_contains("enum")) {
            for (const auto& c : choices->as_array()) accepted(c);
            CHECK(error_of(key, "no-such-choice").rfind(at + "\"no-such-choice\" (expected ", 0) == 0);
        }
    }
}

}  // namespace

TEST_CASE("plugin config schemas: the shape the host shows, and what each plugin does") {
    const auto plugins = built_plugins();
    REQUIRE_FALSE(plugins.empty());
    for (const auto& file : plugins) {
        auto p = loader::load_plugin(file);
        INFO(p->id);
        test::TempDir dir;
        const json::value schema = json::parse(p->config_schema);
        const auto& props = check_shape(schema, p->id + " config");

        // the defaults are what the plugin uses: {} and the defaults spelled out make the same instance
        json::object defaults;
        for (const auto& [name, prop] : props)
            if (const auto* d = prop.as_object().if_contains("default")) defaults[name] = *d;
        CHECK(test::json_schema_problems(defaults, schema.as_object()).empty());
        Instance from_empty(*p, dir.path(), {});
        REQUIRE_MESSAGE(from_empty.ok(), from_empty.error());
        Instance from_defaults(*p, dir.path(), defaults);
        REQUIRE_MESSAGE(from_defaults.ok(), from_defaults.error());
        if (p->implements(STAND_LIFECYCLE_ID)) {
            auto a = from_empty.call("lifecycle.facts"), b = from_defaults.call("lifecycle.facts");
            REQUIRE_MESSAGE(a.code == STAND_OK, a.error);
            CHECK(a.output == b.output);
        }
        if (p->implements(STAND_PROXY_ID)) {
            auto a = from_empty.call("proxy.endpoint");
            REQUIRE_MESSAGE(a.code == STAND_OK, a.error);
            CHECK(json::parse(a.output).at("port") == props.at("port").at("default"));
            CHECK(a.output == from_defaults.call("proxy.endpoint").output);
        }

        // the ranges and enums are the ones it enforces; unknown keys are refused
        check_bounds(
            props, "config",
            [&](const std::string& key, const json::value& v) { return create_error(*p, dir.path(), {{key, v}}); },
            true);
        CHECK(create_error(*p, dir.path(), {{"no_such_key", 1}}) == "config.no_such_key: unknown key");

        // a probe's params: each job's schema has the same shape, and its bounds are enforced by prepare()
        if (p->implements(STAND_PROBE_ID)) {
            auto jobs = from_empty.call("probe.list_jobs");
            REQUIRE_MESSAGE(jobs.code == STAND_OK, jobs.error);
            const json::value listed = json::parse(jobs.output);
            for (const auto& job : listed.as_array()) {
                const std::string id(job.at("id").as_string());
                const auto* params = job.as_object().if_contains("params_schema");
                if (params == nullptr) continue;
                const auto& params_props = check_shape(*params, p->id + " " + id + " params");
                auto prepare_error = [&](const std::string& key, const json::value& v) {
                    auto r = from_empty.call("probe.prepare", {{"job", id}, {"params", {{key, v}}}});
                    from_empty.call("probe.cleanup", {{"job", id}});
                    // the probe names itself (and the job) before "params."
                    const auto at = r.error.find("params.");
                    return r.code == STAND_OK ? std::string() : r.error.substr(at == std::string::npos ? 0 : at);
                };
                // accepted values would run the job's preparation (a disk probe writes its test file)
                check_bounds(params_props, "params", prepare_error, false);
            }
        }
    }
}
