#include "remnawave_api.hpp"

#include <stand/kits/panel/panel_plugin.hpp>
#include <stand/kits/panel/url.hpp>

#include <charconv>

namespace stand_remnawave {

namespace json = boost::json;
using stand::cpp::Error;
using stand_panel_kit::Reply;

namespace {

// A dead API token: 401 when the JWT does not verify (expired, another
// APP_SECRET), 403 "Forbidden resource" when the JWT guard refuses it (the
// token was deleted). Other 403s are the backend's "Forbidden" (E000).
bool token_refused(const Reply& r) {
    if (r.status == 401) return true;
    if (r.status != 403) return false;
    const auto* o = r.json.if_object();
    if (o == nullptr) {
        boost::system::error_code ec;
        auto v = json::parse(r.body, ec);
        return !ec && v.is_object() && v.as_object().contains("message") &&
               v.as_object().at("message") == "Forbidden resource";
    }
    const auto* m = o->if_contains("message");
    return m && m->is_string() && m->as_string() == "Forbidden resource";
}

// The backend's error code ("A025"), "" for another body (a guard's, nestjs-zod's).
std::string error_code(const Reply& r) {
    const auto* o = r.json.if_object();
    const auto* code = o ? o->if_contains("errorCode") : nullptr;
    return code && code->is_string() ? std::string(code->as_string()) : std::string();
}

// 404 with `code`: no such user (users.service.ts: A025 USER_NOT_FOUND for a
// change, A063 GET_USER_BY_UNIQUE_FIELDS_NOT_FOUND for a read); another 404
// is a route this backend lacks.
bool user_missing(const std::string& op, const Reply& r, const char* code = "A025") {
    if (r.status != 404) return false;
    if (error_code(r) != code) throw stand_panel_kit::bad_response(kPanel, op, "no such route on this backend", r);
    return true;
}

// A user's id (users.schema.ts: a number; the path's numberParamSchema: positive).
// Any other text names no user.
std::optional<std::uint64_t> numeric_id(const std::string& id) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), n);
    if (id.empty() || ec != std::errc() || end != id.data() + id.size() || n == 0) return std::nullopt;
    return n;
}

const json::array& array_at(const json::value& v, const std::string& op, std::initializer_list<const char*> path) {
    const auto& a = stand_panel_kit::member(v, kPanel, op, path);
    if (!a.is_array()) throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": " + op + ": not a list: " +
                                                             stand_panel_kit::excerpt(json::serialize(a)));
    return a.as_array();
}

}  // namespace

const json::object& Api::forwarding() {
    static const json::object h{{"X-Forwarded-For", "127.0.0.1"}, {"X-Forwarded-Proto", "https"}};
    return h;
}

Api::Api(const stand::cpp::Host& host, std::string origin, std::filesystem::path token_file,
         std::function<stand_panel_kit::Credentials()> credentials)
    : host_(host), origin_(std::move(origin)), token_file_(std::move(token_file)), credentials_(std::move(credentials)),
      api_(std::make_unique<stand_panel_kit::AdminApi>(host, kPanel, origin_)) {
    for (const auto& [k, v] : forwarding()) api_->set_header(std::string(k), std::string(v.as_string()));
    api_->on_refused([this](stand_panel_kit::AdminApi& a) { sign_in(a); }, token_refused);
}

Reply Api::call(const std::string& op, const json::object& request, std::vector<int> expect) {
    if (!bearer_) {
        if (auto kept = load_kept_token(token_file_, credentials_())) {
            api_->set_header("Authorization", "Bearer " + kept->token);
            bearer_ = true;
        } else {
            sign_in(*api_);
        }
    }
    return api_->call(op, request, std::move(expect));
}

// The dashboard session's access token: register the admin on a fresh
// backend, log in otherwise (a wrong password is 403 "Forbidden", E000).
std::string Api::dashboard_session(stand_panel_kit::AdminApi& a, const stand_panel_kit::Credentials& c) {
    auto status = a.call("auth status", {{"method", "GET"}, {"url", url("/api/auth/status")}}, {200});
    const auto& allowed = stand_panel_kit::member(status.json, kPanel, "auth status", {"response", "isRegisterAllowed"});
    const json::object body{{"username", c.username}, {"password", c.password}};
    Reply r;
    if (allowed.is_bool() && allowed.as_bool()) {
        r = a.call("register", {{"method", "POST"}, {"url", url("/api/auth/register")}, {"json", body}}, {201});
    } else {
        r = a.call("login", {{"method", "POST"}, {"url", url("/api/auth/login")}, {"json", body}}, {200, 401, 403});
        if (r.status != 200)
            throw stand_panel_kit::bad_response(kPanel, "login", "wrong credentials for admin '" + c.username + "'", r);
    }
    return stand_panel_kit::string_member(r.json, kPanel, "login", {"response", "accessToken"});
}

json::object Api::browser_headers() {
    stand_panel_kit::AdminApi browser(host_, kPanel, origin_, json::object{{"cookies", false}});
    json::object h = forwarding();
    for (const auto& [k, v] : h) browser.set_header(std::string(k), std::string(v.as_string()));
    h["Authorization"] = "Bearer " + dashboard_session(browser, credentials_());
    h["X-Remnawave-Client-Type"] = "browser";
    h["Accept"] = "application/json";
    return h;
}

// Mints an API token from a dashboard session (X-Remnawave-Client-Type:
// browser), deletes the one it replaces and keeps the new one.
void Api::sign_in(stand_panel_kit::AdminApi& a) {
    const auto c = credentials_();
    a.remove_header("Authorization");
    bearer_ = false;
    a.set_header("Authorization", "Bearer " + dashboard_session(a, c));
    a.set_header("X-Remnawave-Client-Type", "browser");
    auto t = a.call("create API token",
                    {{"method", "POST"}, {"url", url("/api/tokens")}, {"json", {{"name", "stand"}, {"expiresInDays", 30}}}},
                    {201});
    const KeptToken fresh{stand_panel_kit::string_member(t.json, kPanel, "create API token", {"response", "uuid"}),
                          stand_panel_kit::string_member(t.json, kPanel, "create API token", {"response", "token"})};
    if (auto old = load_kept_token(token_file_, c); old && old->uuid != fresh.uuid)
        a.call("delete replaced API token", {{"method", "DELETE"}, {"url", url("/api/tokens/" + old->uuid)}}, {204, 404},
               false);
    a.remove_header("X-Remnawave-Client-Type");
    save_kept_token(token_file_, c, fresh);
    a.set_header("Authorization", "Bearer " + fresh.token);
    bearer_ = true;
}

json::array Api::internal_squads() {
    auto r = call("list squads", {{"method", "GET"}, {"url", url("/api/internal-squads")}}, {200});
    return array_at(r.json, "list squads", {"response", "internalSquads"});
}

void Api::create_internal_squad(const std::string& name, const std::string& inbound_uuid) {
    // 409 (A120): another bootstrap made it first.
    call("create squad",
         {{"method", "POST"}, {"url", url("/api/internal-squads")},
          {"json", {{"name", name}, {"inbounds", json::array{inbound_uuid.c_str()}}}}},
         {201, 409});
}

json::array Api::config_profiles() {
    auto r = call("list config profiles", {{"method", "GET"}, {"url", url("/api/config-profiles")}}, {200});
    return array_at(r.json, "list config profiles", {"response", "configProfiles"});
}

void Api::create_config_profile(const std::string& name, const json::object& config) {
    // 409 (A114 name, A113 inbound tag): another bootstrap made it first.
    call("create config profile",
         {{"method", "POST"}, {"url", url("/api/config-profiles")}, {"json", {{"name", name}, {"config", config}}}},
         {201, 409});
}

json::array Api::hosts() {
    auto r = call("list hosts", {{"method", "GET"}, {"url", url("/api/hosts")}}, {200});
    return array_at(r.json, "list hosts", {"response"});
}

void Api::create_host(const json::object& host) {
    call("create host", {{"method", "POST"}, {"url", url("/api/hosts")}, {"json", host}}, {201});
}

void Api::delete_host(const std::string& uuid) {
    call("delete duplicate host", {{"method", "DELETE"}, {"url", url("/api/hosts/" + uuid)}}, {200, 204, 404});
}

std::string Api::node_secret_key() {
    auto r = call("node secret key", {{"method", "GET"}, {"url", url("/api/keygen")}}, {200});
    return stand_panel_kit::string_member(r.json, kPanel, "node secret key", {"response", "secretKey"});
}

json::array Api::nodes() {
    auto r = call("list nodes", {{"method", "GET"}, {"url", url("/api/nodes")}}, {200});
    return array_at(r.json, "list nodes", {"response"});
}

bool Api::create_node(const json::object& node) {
    auto r = call("create node", {{"method", "POST"}, {"url", url("/api/nodes")}, {"json", node}}, {201, 400});
    if (r.status == 201) return true;
    if (error_code(r) == "A033") return false;
    // A034: another node has this address.
    throw stand_panel_kit::bad_response(kPanel, "create node", "refused", r);
}

CreatedUser Api::create_user(const std::string& name, const std::string& squad) {
    const json::object body{{"username", name},
                            {"expireAt", "2099-01-01T00:00:00.000Z"},
                            {"activeInternalSquads", json::array{squad.c_str()}}};
    auto r = call("create user", {{"method", "POST"}, {"url", url("/api/users")}, {"json", body}}, {201, 400});
    if (r.status != 201) {
        // users.service.ts maps a unique-username violation to A019 (HTTP 400).
        const bool duplicate = error_code(r) == "A019";
        throw stand_panel_kit::bad_response(kPanel, "create user", duplicate ? "duplicate user '" + name + "'" : "refused", r);
    }
    const auto& user = stand_panel_kit::member(r.json, kPanel, "create user", {"response"});
    return {stand_panel_kit::id_member(user, kPanel, "create user", {"id"}),
            stand_panel_kit::string_member(user, kPanel, "create user", {"subscriptionUrl"}), user.as_object()};
}

bool Api::delete_user(const std::string& id) {
    return call("delete user", {{"method", "DELETE"}, {"url", url("/api/users/" + id)}}, {200, 204, 404}).status != 404;
}

void Api::list_users(int size) {
    call("list users", {{"method", "GET"}, {"url", url("/api/users?size=" + std::to_string(size))}}, {200});
}

std::optional<std::string> Api::user_subscription_url(const std::string& id) {
    auto r = call("read user", {{"method", "GET"}, {"url", url("/api/users/" + id)}}, {200, 404});
    if (r.status == 404) return std::nullopt;
    return stand_panel_kit::string_member(r.json, kPanel, "read user", {"response", "subscriptionUrl"});
}

bool Api::set_user_enabled(const std::string& id, bool enabled) {
    if (!numeric_id(id)) return false;
    const std::string op = enabled ? "enable user" : "disable user";
    auto r = call(op, {{"method", "POST"}, {"url", url("/api/users/" + id + "/actions/" + (enabled ? "enable" : "disable"))}},
                  {200, 400, 404});
    if (user_missing(op, r)) return false;
    // users.service.ts: A029 "User already disabled", A030 "User already enabled".
    if (r.status == 400 && error_code(r) != (enabled ? "A030" : "A029"))
        throw stand_panel_kit::bad_response(kPanel, op, "refused", r);
    return true;
}

bool Api::update_user(const std::string& id, const json::object& changes, const std::string& op) {
    const auto n = numeric_id(id);
    if (!n) return false;
    json::object body = changes;
    body["id"] = *n;
    return !user_missing(op, call(op, {{"method", "PATCH"}, {"url", url("/api/users")}, {"json", body}}, {200, 404}));
}

std::optional<std::uint64_t> Api::user_used_traffic(const std::string& id) {
    if (!numeric_id(id)) return std::nullopt;
    auto r = call("read traffic", {{"method", "GET"}, {"url", url("/api/users/" + id)}}, {200, 404});
    if (user_missing("read traffic", r, "A063")) return std::nullopt;
    return stand_panel_kit::count_member(r.json, kPanel, "read traffic", {"response", "userTraffic", "usedTrafficBytes"});
}

json::object Api::subscription(const std::string& sub_url) const {
    std::string target = stand_panel_kit::resolve_url(origin_ + "/", sub_url);
    json::object headers;
    const std::string authority = origin_.substr(origin_.find("://") + 3);
    const std::string target_origin = stand_panel_kit::origin_of(target);
    if (target_origin == "https://" + authority || target_origin == "http://" + authority) {
        target = origin_ + stand_panel_kit::path_of(target);
        for (const auto& [k, v] : forwarding()) headers[k] = v;
    }
    return stand_panel_kit::subscription_get(target, headers);
}

}  // namespace stand_remnawave
