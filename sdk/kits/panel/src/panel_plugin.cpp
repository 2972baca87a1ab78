#include <stand/kits/panel/panel_plugin.hpp>

namespace stand_panel_kit {

namespace json = boost::json;
using stand::cpp::Error;

json::object subscription_get(const std::string& url, const json::object& headers) {
    json::object h{{"User-Agent", "v2rayN/7.5.0"}};
    for (const auto& [k, v] : headers) h[k] = v;
    return {{"method", "GET"}, {"url", url}, {"headers", h}};
}

stand_result PanelPlugin::wipe() {
    const stand_result r = PanelLifecycle::wipe();
    bootstrapped_ = false;
    return r;
}

json::object PanelPlugin::guarded(const char* operation, const std::function<json::object()>& call,
                                  bool needs_bootstrap) {
    if (needs_bootstrap && !bootstrapped_)
        throw Error(STAND_E_BAD_STATE, panel_name() + ": " + operation + " before bootstrap");
    auto& processes = launcher().processes();
    if (auto dead = processes.death())
        throw Error(STAND_E_BAD_STATE, panel_name() + ": " + operation + ": " + *dead);
    try {
        return call();
    } catch (const Error& e) {
        if (e.code() == STAND_E_CANCELLED) throw;
        // A call that failed because a part died can fail before that death is seen (the panel answers 503
        // while its store is still exiting): look again for a moment, so the cause is named either way.
        auto dead = processes.death();
        for (int i = 0; !dead && i < 10; ++i) {
            host().sleep_ms(25);  // the host's clock: a cancelled call stops waiting
            dead = processes.death();
        }
        if (!dead) throw;
        throw Error(e.code(), panel_name() + ": " + operation + ": " + *dead + " (the call failed: " + e.what() + ")");
    }
}

void PanelPlugin::bootstrap() {
    guarded(
        "bootstrap",
        [&] {
            bootstrap_hook();
            return json::object{};
        },
        false);
    bootstrapped_ = true;
}

json::object PanelPlugin::create_user(const std::string& name) {
    return guarded("create_user", [&] { return create_user_hook(name); });
}

void PanelPlugin::delete_user(const std::string& user_id) {
    guarded("delete_user", [&] {
        delete_user_hook(user_id);
        return json::object{};
    });
}

void PanelPlugin::admin_call() {
    guarded("admin_call", [&] {
        admin_call_hook();
        return json::object{};
    });
}

json::object PanelPlugin::subscription_request(const std::string& user_id) {
    return guarded("subscription_request", [&] { return subscription_request_hook(user_id); });
}

void PanelPlugin::set_user_enabled(const std::string& user_id, bool enabled) {
    guarded("set_user_enabled", [&] {
        set_user_enabled_hook(user_id, enabled);
        return json::object{};
    });
}

void PanelPlugin::set_user_quota(const std::string& user_id, std::uint64_t quota_bytes) {
    guarded("set_user_quota", [&] {
        set_user_quota_hook(user_id, quota_bytes);
        return json::object{};
    });
}

json::object PanelPlugin::user_traffic(const std::string& user_id) {
    return guarded("user_traffic", [&] { return user_traffic_hook(user_id); });
}

json::object PanelPlugin::dashboard_requests() {
    return guarded("dashboard_requests", [&] {
        json::array requests;
        for (const auto& d : dashboard_requests_hook()) {
            json::object r{{"page", d.page}, {"name", d.name}, {"every_s", d.every_s}, {"method", d.method},
                           {"url", d.url}, {"headers", d.headers}};
            if (!d.body.empty()) r["body"] = d.body;
            requests.push_back(std::move(r));
        }
        return json::object{{"requests", std::move(requests)}};
    });
}

void PanelPlugin::set_user_enabled_hook(const std::string&, bool) {
    throw Error(STAND_E_UNSUPPORTED, panel_name() + ": set_user_enabled: this adapter has no user switch");
}

void PanelPlugin::set_user_quota_hook(const std::string&, std::uint64_t) {
    throw Error(STAND_E_UNSUPPORTED, panel_name() + ": set_user_quota: this adapter sets no traffic quota");
}

json::object PanelPlugin::user_traffic_hook(const std::string&) {
    throw Error(STAND_E_UNSUPPORTED, panel_name() + ": user_traffic: this adapter reads no traffic counts");
}

std::vector<DashboardRequest> PanelPlugin::dashboard_requests_hook() {
    throw Error(STAND_E_UNSUPPORTED, panel_name() + ": dashboard_requests: this adapter describes no dashboard requests");
}

}  // namespace stand_panel_kit
