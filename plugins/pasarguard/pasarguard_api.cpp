#include "pasarguard_api.hpp"

namespace stand_pasarguard {

namespace json = boost::json;
using stand::cpp::Error;
using stand_panel_kit::Reply;

namespace {

// Items of a list answer: an array, or {"<key>": [...]} (paged lists).
const json::array* items(const json::value& v, const char* key) {
    if (v.is_array()) return &v.as_array();
    if (const auto* o = v.if_object())
        if (const auto* a = o->if_contains(key); a && a->is_array()) return &a->as_array();
    return nullptr;
}

bool named(const json::value& v, const char* key, const std::string& name) {
    const auto* o = v.if_object();
    return o && o->contains(key) && o->at(key) == name.c_str();
}

// The item of a list answer whose `key` is `name`, or null.
const json::value* find_named(const json::value& list, const char* items_key, const char* key, const std::string& name) {
    if (const auto* all = items(list, items_key))
        for (const auto& item : *all)
            if (named(item, key, name)) return &item;
    return nullptr;
}

// FastAPI answers {"detail": "Not Found"} for a path it has no route for,
// while the panel's own 404 for a user is {"detail": "User not found"}.
bool user_missing(const std::string& op, const std::string& id, const Reply& r) {
    if (r.status != 404) return false;
    const auto* o = r.json.if_object();
    const auto* d = o ? o->if_contains("detail") : nullptr;
    if (d && d->is_string() && d->as_string() == "User not found") return true;
    throw stand_panel_kit::bad_response(kPanel, op, "the panel has no such route (not a missing user " + id + ")", r);
}

}  // namespace

Api::Api(const stand::cpp::Host& host, std::string origin, std::function<stand_panel_kit::Credentials()> credentials)
    : host_(host), origin_(std::move(origin)), credentials_(std::move(credentials)),
      api_(std::make_unique<stand_panel_kit::AdminApi>(host, kPanel, origin_, json::object{{"cookies", false}})) {
    api_->on_refused([this](stand_panel_kit::AdminApi& a) { sign_in(a); });
}

void Api::set_up_owner(const std::string& temp_key) {
    const auto c = credentials_();
    api_->call("setup owner",
               {{"method", "POST"},
                {"url", url("/api/setup/owner")},
                {"json", {{"key", temp_key}, {"username", c.username}, {"password", c.password}}}},
               {201, 409}, false);
}

void Api::sign_in() { sign_in(*api_); }

json::object Api::browser_headers() {
    stand_panel_kit::AdminApi browser(host_, kPanel, origin_, json::object{{"cookies", false}});
    sign_in(browser);
    return {{"Authorization", browser.header("Authorization")}};
}

void Api::sign_in(stand_panel_kit::AdminApi& a) {
    const auto c = credentials_();
    a.remove_header("Authorization");
    auto r = a.call("login", {{"method", "POST"}, {"url", url("/api/admin/token")},
                              {"form", {{"username", c.username}, {"password", c.password}}}},
                    {200, 401, 403});
    if (r.status != 200) throw stand_panel_kit::bad_response(kPanel, "login", "wrong credentials for admin '" + c.username + "'", r);
    a.set_header("Authorization", "Bearer " + stand_panel_kit::string_member(r.json, kPanel, "login", {"access_token"}));
}

Reply Api::call(const std::string& op, const json::object& request, std::vector<int> expect) {
    return api_->call(op, request, std::move(expect));
}

std::optional<long long> Api::find_group(const std::string& name) {
    auto list = call("list groups", {{"method", "GET"}, {"url", url("/api/groups")}}, {200});
    if (const auto* g = find_named(list.json, "groups", "name", name))
        return std::stoll(stand_panel_kit::id_member(*g, kPanel, "list groups", {"id"}));
    return std::nullopt;
}

long long Api::create_group(const std::string& name, const std::string& inbound_tag) {
    auto r = call("create group", {{"method", "POST"}, {"url", url("/api/group")},
                                   {"json", {{"name", name}, {"inbound_tags", json::array{inbound_tag.c_str()}}}}},
                  {201});
    return std::stoll(stand_panel_kit::id_member(r.json, kPanel, "create group", {"id"}));
}

bool Api::has_host(const std::string& remark) {
    auto list = call("list hosts", {{"method", "GET"}, {"url", url("/api/hosts")}}, {200});
    return find_named(list.json, "hosts", "remark", remark) != nullptr;
}

void Api::create_host(const json::object& host) {
    // The trailing slash matters: without it the panel answers 307.
    call("create host", {{"method", "POST"}, {"url", url("/api/host/")}, {"json", host}}, {201});
}

std::optional<long long> Api::find_core(const std::string& name) {
    auto list = call("list cores", {{"method", "GET"}, {"url", url("/api/cores")}}, {200});
    if (const auto* c = find_named(list.json, "cores", "name", name))
        return std::stoll(stand_panel_kit::id_member(*c, kPanel, "list cores", {"id"}));
    return std::nullopt;
}

std::optional<long long> Api::find_core_with_inbound(const std::string& inbound_tag) {
    auto list = call("list cores", {{"method", "GET"}, {"url", url("/api/cores")}}, {200});
    if (const auto* all = items(list.json, "cores"))
        for (const auto& core : *all) {
            const auto* config = core.is_object() ? core.as_object().if_contains("config") : nullptr;
            const auto* inbounds = config && config->is_object() ? config->as_object().if_contains("inbounds") : nullptr;
            if (!inbounds || !inbounds->is_array()) continue;
            for (const auto& in : inbounds->as_array())
                if (named(in, "tag", inbound_tag)) return std::stoll(stand_panel_kit::id_member(core, kPanel, "list cores", {"id"}));
        }
    return std::nullopt;
}

long long Api::create_core(const std::string& name, const json::object& config) {
    auto r = call("create core config",
                  {{"method", "POST"}, {"url", url("/api/core")},
                   {"json", {{"name", name}, {"config", config}, {"exclude_inbound_tags", json::array{}},
                             {"fallbacks_inbound_tags", json::array{}}}}},
                  {201});
    return std::stoll(stand_panel_kit::id_member(r.json, kPanel, "create core config", {"id"}));
}

std::optional<long long> Api::find_node(const std::string& name) {
    auto list = call("list nodes", {{"method", "GET"}, {"url", url("/api/nodes")}}, {200});
    if (const auto* n = find_named(list.json, "nodes", "name", name))
        return std::stoll(stand_panel_kit::id_member(*n, kPanel, "list nodes", {"id"}));
    return std::nullopt;
}

long long Api::create_node(const json::object& node) {
    auto r = call("create node", {{"method", "POST"}, {"url", url("/api/node")}, {"json", node}}, {201});
    return std::stoll(stand_panel_kit::id_member(r.json, kPanel, "create node", {"id"}));
}

void Api::modify_node(long long id, const json::object& node) {
    call("modify node", {{"method", "PUT"}, {"url", url("/api/node/" + std::to_string(id))}, {"json", node}}, {200});
}

NodeState Api::node_state(long long id) {
    auto r = call("read node", {{"method", "GET"}, {"url", url("/api/node/" + std::to_string(id))}}, {200});
    const auto text = [&](const char* key) {
        const auto* o = r.json.if_object();
        const auto* v = o ? o->if_contains(key) : nullptr;
        return v && v->is_string() ? std::string(v->as_string()) : std::string();
    };
    return {stand_panel_kit::string_member(r.json, kPanel, "read node", {"status"}), text("message"), text("node_version"),
            text("xray_version")};
}

CreatedUser Api::create_user(const std::string& name, long long group_id) {
    auto r = call("create user", {{"method", "POST"}, {"url", url("/api/user")},
                                  {"json", {{"username", name}, {"group_ids", json::array{group_id}}, {"data_limit", 0}}}},
                  {201, 409});
    if (r.status == 409) throw stand_panel_kit::bad_response(kPanel, "create user", "duplicate user '" + name + "'", r);
    return {stand_panel_kit::id_member(r.json, kPanel, "create user", {"id"}),
            stand_panel_kit::string_member(r.json, kPanel, "create user", {"subscription_url"}), r.json.as_object()};
}

bool Api::delete_user(const std::string& id) {
    auto r = call("delete user", {{"method", "DELETE"}, {"url", url("/api/user/by-id/" + id)}}, {204, 404});
    return !user_missing("delete user", id, r);
}

void Api::list_users(int limit) {
    call("list users", {{"method", "GET"}, {"url", url("/api/users?limit=" + std::to_string(limit))}}, {200});
}

std::optional<std::string> Api::user_subscription_url(const std::string& id) {
    // GET /api/user/by-id mints the URL; GET /api/users leaves it "" unless load_sub=true.
    auto r = call("read user", {{"method", "GET"}, {"url", url("/api/user/by-id/" + id)}}, {200, 404});
    if (user_missing("read user", id, r)) return std::nullopt;
    return stand_panel_kit::string_member(r.json, kPanel, "read user", {"subscription_url"});
}

bool Api::modify_user(const std::string& id, const json::object& changes, const std::string& op) {
    auto r = call(op, {{"method", "PUT"}, {"url", url("/api/user/by-id/" + id)}, {"json", changes}}, {200, 404});
    return !user_missing(op, id, r);
}

std::optional<std::uint64_t> Api::user_used_traffic(const std::string& id) {
    auto r = call("read traffic", {{"method", "GET"}, {"url", url("/api/user/by-id/" + id)}}, {200, 404});
    if (user_missing("read traffic", id, r)) return std::nullopt;
    return stand_panel_kit::count_member(r.json, kPanel, "read traffic", {"used_traffic"});
}

}  // namespace stand_pasarguard
