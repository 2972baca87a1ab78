#include "isolation/interface_calls.hpp"

#include <stand/cpp/error.hpp>
#include <stand/cpp/sink.hpp>

#include <functional>
#include <map>
#include <stdexcept>

namespace stand::isolation {
namespace {

struct Call {
    stand_instance* self;
    const boost::json::object& args;
    stand_error* err;
    const stand_sink* out;

    std::string text(const char* key) const {
        auto* v = args.if_contains(key);
        if (v == nullptr || !v->is_string()) throw std::invalid_argument(std::string("argument '") + key + "' (string) is required");
        return std::string(v->get_string());
    }
    bool flag(const char* key) const {
        auto* v = args.if_contains(key);
        if (v == nullptr || !v->is_bool()) throw std::invalid_argument(std::string("argument '") + key + "' (true or false) is required");
        return v->get_bool();
    }
    std::uint64_t count(const char* key) const {
        auto* v = args.if_contains(key);
        if (v == nullptr || !(v->is_uint64() || (v->is_int64() && v->get_int64() >= 0)))
            throw std::invalid_argument(std::string("argument '") + key + "' (a count >= 0) is required");
        return v->to_number<std::uint64_t>();
    }
    // A member appended after the interface's first version that this plugin's table lacks (older ABI) or left NULL.
    stand_result missing(const char* member, const char* since = "1.3") const {
        cpp::write_error(err, (std::string("the plugin has no ") + member + " (its stand.panel/1 table predates "
                               "ABI " + since + ", or the panel has no such switch)").c_str());
        return STAND_E_UNSUPPORTED;
    }
    std::string json(const char* key) const {
        auto* v = args.if_contains(key);
        return v == nullptr ? std::string("{}") : boost::json::serialize(*v);
    }
};

using Method = std::function<stand_result(const void* table, const Call&)>;

struct MethodSpec {
    const char* interface_id;
    Method invoke;
};

const std::map<std::string, MethodSpec>& methods() {
    static const std::map<std::string, MethodSpec> table = {
        {"lifecycle.install", {STAND_LIFECYCLE_ID, [](const void* t, const Call& c) { return static_cast<const stand_lifecycle*>(t)->install(c.self, c.err); }}},
        {"lifecycle.start", {STAND_LIFECYCLE_ID, [](const void* t, const Call& c) { return static_cast<const stand_lifecycle*>(t)->start(c.self, c.err); }}},
        {"lifecycle.stop", {STAND_LIFECYCLE_ID, [](const void* t, const Call& c) { return static_cast<const stand_lifecycle*>(t)->stop(c.self, c.err); }}},
        {"lifecycle.restart", {STAND_LIFECYCLE_ID, [](const void* t, const Call& c) { return static_cast<const stand_lifecycle*>(t)->restart(c.self, c.err); }}},
        {"lifecycle.wipe", {STAND_LIFECYCLE_ID, [](const void* t, const Call& c) { return static_cast<const stand_lifecycle*>(t)->wipe(c.self, c.err); }}},
        {"lifecycle.readiness", {STAND_LIFECYCLE_ID, [](const void* t, const Call& c) { return static_cast<const stand_lifecycle*>(t)->readiness(c.self, c.out, c.err); }}},
        {"lifecycle.facts", {STAND_LIFECYCLE_ID, [](const void* t, const Call& c) { return static_cast<const stand_lifecycle*>(t)->facts(c.self, c.out, c.err); }}},
        {"panel.bootstrap", {STAND_PANEL_ID, [](const void* t, const Call& c) { return static_cast<const stand_panel*>(t)->bootstrap(c.self, c.err); }}},
        {"panel.create_user", {STAND_PANEL_ID, [](const void* t, const Call& c) { return static_cast<const stand_panel*>(t)->create_user(c.self, c.text("name").c_str(), c.out, c.err); }}},
        {"panel.delete_user", {STAND_PANEL_ID, [](const void* t, const Call& c) { return static_cast<const stand_panel*>(t)->delete_user(c.self, c.text("id").c_str(), c.err); }}},
        {"panel.admin_call", {STAND_PANEL_ID, [](const void* t, const Call& c) { return static_cast<const stand_panel*>(t)->admin_call(c.self, c.err); }}},
        {"panel.subscription_request", {STAND_PANEL_ID, [](const void* t, const Call& c) { return static_cast<const stand_panel*>(t)->subscription_request(c.self, c.text("id").c_str(), c.out, c.err); }}},
        {"panel.set_user_enabled", {STAND_PANEL_ID, [](const void* t, const Call& c) {
             const auto* p = static_cast<const stand_panel*>(t);
             const std::string id = c.text("id");
             const bool enabled = c.flag("enabled");
             if (!STAND_HAS(p, stand_panel, set_user_enabled)) return c.missing("set_user_enabled");
             return p->set_user_enabled(c.self, id.c_str(), enabled ? 1 : 0, c.err); }}},
        {"panel.set_user_quota", {STAND_PANEL_ID, [](const void* t, const Call& c) {
             const auto* p = static_cast<const stand_panel*>(t);
             const std::string id = c.text("id");
             const std::uint64_t quota = c.count("quota_bytes");
             if (!STAND_HAS(p, stand_panel, set_user_quota)) return c.missing("set_user_quota");
             return p->set_user_quota(c.self, id.c_str(), quota, c.err); }}},
        {"panel.user_traffic", {STAND_PANEL_ID, [](const void* t, const Call& c) {
             const auto* p = static_cast<const stand_panel*>(t);
             const std::string id = c.text("id");
             if (!STAND_HAS(p, stand_panel, user_traffic)) return c.missing("user_traffic");
             return p->user_traffic(c.self, id.c_str(), c.out, c.err); }}},
        {"panel.dashboard_requests", {STAND_PANEL_ID, [](const void* t, const Call& c) {
             const auto* p = static_cast<const stand_panel*>(t);
             if (!STAND_HAS(p, stand_panel, dashboard_requests)) return c.missing("dashboard_requests", "1.4");
             return p->dashboard_requests(c.self, c.out, c.err); }}},
        {"proxy.configure", {STAND_PROXY_ID, [](const void* t, const Call& c) { return static_cast<const stand_proxy*>(t)->configure(c.self, c.json("knobs").c_str(), c.err); }}},
        {"proxy.endpoint", {STAND_PROXY_ID, [](const void* t, const Call& c) { return static_cast<const stand_proxy*>(t)->endpoint(c.self, c.out, c.err); }}},
        {"proxy.effective_defaults", {STAND_PROXY_ID, [](const void* t, const Call& c) { return static_cast<const stand_proxy*>(t)->effective_defaults(c.self, c.out, c.err); }}},
        {"probe.list_jobs", {STAND_PROBE_ID, [](const void* t, const Call& c) { return static_cast<const stand_probe*>(t)->list_jobs(c.self, c.out, c.err); }}},
        {"probe.prepare", {STAND_PROBE_ID, [](const void* t, const Call& c) { return static_cast<const stand_probe*>(t)->prepare(c.self, c.text("job").c_str(), c.json("params").c_str(), c.err); }}},
        {"probe.run", {STAND_PROBE_ID, [](const void* t, const Call& c) { return static_cast<const stand_probe*>(t)->run(c.self, c.text("job").c_str(), c.out, c.err); }}},
        {"probe.cleanup", {STAND_PROBE_ID, [](const void* t, const Call& c) { return static_cast<const stand_probe*>(t)->cleanup(c.self, c.text("job").c_str(), c.err); }}},
    };
    return table;
}

}  // namespace

std::vector<std::string> known_methods() {
    std::vector<std::string> names;
    for (const auto& [name, _] : methods()) names.push_back(name);
    return names;
}

CallOutcome call_interface(const loader::LoadedPlugin& plugin, stand_instance* instance, const std::string& method,
                           const boost::json::object& args) {
    auto it = methods().find(method);
    if (it == methods().end()) throw std::invalid_argument("unknown plugin method '" + method + "'");
    CallOutcome outcome;
    const void* table = plugin.entry.get_interface(instance, it->second.interface_id);
    if (table == nullptr) {
        outcome.code = STAND_E_UNSUPPORTED;
        outcome.error = "plugin " + plugin.id + " does not implement " + it->second.interface_id;
        return outcome;
    }
    char message[2048] = {0};
    stand_error err{sizeof(stand_error), sizeof(message), message};
    cpp::StringSink sink;
    outcome.code = it->second.invoke(table, Call{instance, args, &err, sink.get()});
    if (outcome.code < 0) outcome.error = message[0] ? message : stand_result_name(outcome.code);
    outcome.output = std::move(sink.str());
    return outcome;
}

}  // namespace stand::isolation
