#include "xui_api.hpp"

#include <stand/kits/panel/credentials.hpp>

namespace stand_3x_ui {

namespace json = boost::json;
using stand::cpp::Error;

namespace {

constexpr const char* kPanel = "3x-ui";

bool success_of(const json::value& v) {
    const auto* o = v.if_object();
    const auto* s = o ? o->if_contains("success") : nullptr;
    return s && s->is_bool() && s->as_bool();
}

std::string msg_of(const json::value& v) {
    const auto* o = v.if_object();
    const auto* m = o ? o->if_contains("msg") : nullptr;
    std::string msg = (m && m->is_string()) ? std::string(m->as_string()) : std::string("(no msg)");
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    for (auto& c : msg)
        if (c == '\n') c = ' ';
    return msg;
}

[[noreturn]] void no_such_client(const std::string& operation, const std::string& email) {
    throw Error(STAND_E_NOT_FOUND, std::string(kPanel) + ": " + operation + ": no client '" + email + "'");
}

}  // namespace

XuiApi::XuiApi(const stand::cpp::Host& host, const std::string& base_url, std::string username, std::string password,
               int timeout_ms)
    : api_(host, kPanel, base_url, {{"cookies", true}, {"timeout_ms", timeout_ms}}),
      username_(std::move(username)),
      password_(std::move(password)) {}

json::value XuiApi::envelope(const std::string& operation, json::object request) {
    // A lost session (panel restarted, cookie expired) answers 404 (401 for
    // XHR) on panel/api: log in once more and retry; a second loss is an error.
    auto first = api_.call(operation, request, {200, 401, 404}, false);
    if (first.status != 200) login();
    auto reply = first.status == 200 ? first : api_.call(operation, std::move(request), {200}, false);
    boost::system::error_code ec;
    reply.json = json::parse(reply.body, ec);
    if (ec) throw stand_panel_kit::bad_response(kPanel, operation, "the body is not JSON", reply);
    if (!success_of(reply.json)) {
        // 3x-ui reports every business error as HTTP 200 with success:false.
        const std::string msg = msg_of(reply.json);
        const bool duplicate = msg.find("Duplicate email") != std::string::npos ||
                               msg.find("already in use") != std::string::npos;
        throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": " + operation + ": " +
                                              (duplicate ? "duplicate user: " : "refused: ") + msg);
    }
    return reply.json;
}

void XuiApi::fetch_csrf() {
    auto reply = api_.call("csrf-token", {{"method", "GET"}, {"url", api_.url("/csrf-token")}}, {200, 404}, false);
    if (reply.status == 404) {  // before v3.0: no CSRF
        csrf_ = false;
        api_.remove_header("X-CSRF-Token");
        return;
    }
    boost::system::error_code ec;
    auto v = json::parse(reply.body, ec);
    if (ec) throw stand_panel_kit::bad_response(kPanel, "csrf-token", "the body is not JSON", reply);
    csrf_ = true;
    api_.set_header("X-CSRF-Token", stand_panel_kit::string_member(v, kPanel, "csrf-token", {"obj"}));
    remember_cookie(reply);
}

void XuiApi::remember_cookie(const stand_panel_kit::Reply& reply) {
    if (auto cookie = stand_panel_kit::set_cookie(reply); !cookie.empty()) cookie_ = std::move(cookie);
}

json::object XuiApi::browser_headers() const {
    if (cookie_.empty()) throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": login: no session cookie was set");
    json::object h{{"Cookie", cookie_}};
    if (csrf_) h["X-CSRF-Token"] = api_.header("X-CSRF-Token");
    return h;
}

void XuiApi::login() {
    api_.reset_session();
    api_.remove_header("X-CSRF-Token");
    fetch_csrf();
    auto reply = api_.call("login", {{"method", "POST"}, {"url", api_.url("/login")},
                                     {"json", {{"username", username_}, {"password", password_}}}},
                           {200, 403});
    if (reply.status == 403)
        throw stand_panel_kit::bad_response(kPanel, "login", "CSRF token refused", reply);
    if (!success_of(reply.json))
        throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": login: wrong credentials for user '" + username_ +
                                              "': " + msg_of(reply.json));
    remember_cookie(reply);
    if (csrf_) fetch_csrf();  // the token lives in the session, which login renewed
}

ClientApi XuiApi::detect_client_api() {
    auto reply = api_.call("detect client API",
                           {{"method", "GET"}, {"url", api_.url("/panel/api/clients/list")}}, {200, 404}, false);
    return reply.status == 200 ? ClientApi::v31 : ClientApi::legacy;
}

std::optional<long long> XuiApi::find_inbound(const std::string& remark) {
    auto v = envelope("list inbounds", {{"method", "GET"}, {"url", api_.url("/panel/api/inbounds/list")}});
    const auto& obj = stand_panel_kit::member(v, kPanel, "list inbounds", {"obj"});
    if (!obj.is_array()) return std::nullopt;  // null when there are none
    for (const auto& in : obj.as_array()) {
        const auto* o = in.if_object();
        if (o && o->contains("remark") && o->at("remark") == remark.c_str())
            return std::stoll(stand_panel_kit::id_member(in, kPanel, "list inbounds", {"id"}));
    }
    return std::nullopt;
}

long long XuiApi::add_vless_reality_inbound(const std::string& remark, const std::string& listen, int port) {
    auto keys = envelope("getNewX25519Cert", {{"method", "GET"}, {"url", api_.url("/panel/api/server/getNewX25519Cert")}});
    const std::string priv = stand_panel_kit::string_member(keys, kPanel, "getNewX25519Cert", {"obj", "privateKey"});
    const std::string pub = stand_panel_kit::string_member(keys, kPanel, "getNewX25519Cert", {"obj", "publicKey"});
    json::object settings{{"clients", json::array{}}, {"decryption", "none"}, {"encryption", "none"},
                          {"fallbacks", json::array{}}};
    json::object stream{
        {"network", "tcp"},
        {"security", "reality"},
        {"externalProxy", json::array{}},
        {"tcpSettings", {{"acceptProxyProtocol", false}, {"header", {{"type", "none"}}}}},
        {"realitySettings",
         {{"show", false}, {"xver", 0}, {"target", "www.cloudflare.com:443"},
          {"serverNames", json::array{"www.cloudflare.com"}}, {"privateKey", priv}, {"minClientVer", ""},
          {"maxClientVer", ""}, {"maxTimediff", 0}, {"shortIds", json::array{"0123456789abcdef"}}, {"mldsa65Seed", ""},
          {"settings", {{"publicKey", pub}, {"fingerprint", "chrome"}, {"serverName", ""}, {"spiderX", "/"},
                        {"mldsa65Verify", ""}}}}}};
    json::object sniffing{{"enabled", true}, {"destOverride", json::array{"http", "tls", "quic", "fakedns"}},
                          {"metadataOnly", false}, {"routeOnly", false}};
    // Strings are accepted by every version (v3.1+ also takes objects).
    json::object body{{"enable", true},       {"remark", remark},   {"listen", listen},
                      {"port", port},         {"protocol", "vless"}, {"expiryTime", 0},
                      {"total", 0},           {"settings", json::serialize(settings)},
                      {"streamSettings", json::serialize(stream)}, {"sniffing", json::serialize(sniffing)}};
    return add_inbound(body);
}

long long XuiApi::add_hysteria2_inbound(const std::string& remark, const std::string& listen, int port,
                                        const Hysteria2Inbound& hy2) {
    json::object tls{{"serverName", ""},
                     {"alpn", json::array{"h3"}},
                     {"certificates", json::array{json::object{{"useFile", true},
                                                               {"certificateFile", hy2.cert_file},
                                                               {"keyFile", hy2.key_file}}}},
                     {"settings", {{"fingerprint", ""}, {"pinnedPeerCertSha256", json::array{hy2.pin_sha256}}}}};
    json::object stream{{"network", "hysteria"},
                        {"security", "tls"},
                        {"hysteriaSettings", {{"version", 2}, {"udpIdleTimeout", 60}}},
                        {"tlsSettings", tls}};
    if (!hy2.congestion.empty())
        stream["finalmask"] = json::object{{"quicParams", {{"congestion", hy2.congestion}}}};
    json::object body{{"enable", true},
                      {"remark", remark},
                      {"listen", listen},
                      {"port", port},
                      {"protocol", "hysteria"},
                      {"expiryTime", 0},
                      {"total", 0},
                      {"settings", json::serialize(json::object{{"version", 2}, {"clients", json::array{}}})},
                      {"streamSettings", json::serialize(stream)},
                      {"sniffing", json::serialize(json::object{{"enabled", false}, {"destOverride", json::array{}}})}};
    return add_inbound(body);
}

long long XuiApi::add_inbound(const json::object& body) {
    auto v = envelope("add inbound", {{"method", "POST"}, {"url", api_.url("/panel/api/inbounds/add")}, {"json", body}});
    return std::stoll(stand_panel_kit::id_member(v, kPanel, "add inbound", {"obj", "id"}));
}

const std::string& XuiApi::settings_prefix() {
    if (!settings_prefix_.empty()) return settings_prefix_;
    auto probe = api_.call("setting/all", {{"method", "POST"}, {"url", api_.url("/panel/api/setting/all")}, {"json", json::object{}}},
                           {200, 401, 404}, false);
    if (probe.status == 200) return settings_prefix_ = "/panel/api/";
    envelope("list inbounds", {{"method", "GET"}, {"url", api_.url("/panel/api/inbounds/list")}});  // logs in again if needed
    probe = api_.call("setting/all", {{"method", "POST"}, {"url", api_.url("/panel/api/setting/all")}, {"json", json::object{}}},
                      {200, 404}, false);
    return settings_prefix_ = probe.status == 200 ? "/panel/api/" : "/panel/";
}

XuiApi::SubSettings XuiApi::sub_settings() {
    const std::string url = api_.url(settings_prefix() + "setting/all");
    auto v = envelope("setting/all", {{"method", "POST"}, {"url", url}, {"json", json::object{}}});
    SubSettings s;
    const auto& obj = stand_panel_kit::member(v, kPanel, "setting/all", {"obj"});
    if (const auto* o = obj.if_object()) {
        if (auto* p = o->if_contains("subPath"); p && p->is_string()) s.path = std::string(p->as_string());
        if (auto* p = o->if_contains("subPort"); p && p->is_number()) s.port = static_cast<int>(p->to_number<long long>());
        if (auto* p = o->if_contains("subURI"); p && p->is_string()) s.uri = std::string(p->as_string());
    }
    return s;
}

bool XuiApi::adjust_xray_template(int api_port, int metrics_port, bool allow_private) {
    auto v = envelope("xray settings",
                      {{"method", "POST"}, {"url", api_.url(settings_prefix() + "xray/")}, {"json", json::object{}}});
    // obj is the JSON of {xraySetting: <template>, inboundTags, ...} as a string.
    boost::system::error_code ec;
    auto outer = json::parse(stand_panel_kit::string_member(v, kPanel, "xray settings", {"obj"}), ec);
    if (ec || !outer.is_object() || !outer.as_object().contains("xraySetting") ||
        !outer.as_object().at("xraySetting").is_object())
        throw Error(STAND_E_BAD_RESPONSE, "3x-ui: xray settings: obj holds no xraySetting object");
    json::object tpl = outer.as_object().at("xraySetting").as_object();
    const json::object before = tpl;
    bool api_found = false;
    if (auto* inbounds = tpl.if_contains("inbounds"); inbounds && inbounds->is_array())
        for (auto& in : inbounds->as_array())
            if (auto* o = in.if_object(); o && o->contains("tag") && o->at("tag") == "api") {
                (*o)["port"] = api_port;
                api_found = true;
            }
    if (!api_found) throw Error(STAND_E_BAD_RESPONSE, "3x-ui: xray settings: the template has no inbound tagged \"api\"");
    if (metrics_port == 0) tpl.erase("metrics");
    else if (auto* m = tpl.if_contains("metrics"); m && m->is_object())
        m->as_object()["listen"] = "127.0.0.1:" + std::to_string(metrics_port);
    if (allow_private) {
        // x-ui's default rule {"ip": ["geoip:private"], "outboundTag": "blocked"}
        if (auto* routing = tpl.if_contains("routing"); routing && routing->is_object())
            if (auto* rules = routing->as_object().if_contains("rules"); rules && rules->is_array()) {
                auto& list = rules->as_array();
                for (auto it = list.begin(); it != list.end();) {
                    const auto* o = it->if_object();
                    const auto* ip = o ? o->if_contains("ip") : nullptr;
                    const bool private_block = ip && ip->is_array() && ip->as_array().size() == 1 &&
                                               ip->as_array()[0] == "geoip:private" && o->contains("outboundTag") &&
                                               o->at("outboundTag") == "blocked";
                    it = private_block ? list.erase(it) : it + 1;
                }
            }
        // Xray's freedom outbound blocks private targets of proxied
        // connections by itself (its default final rule): allow loopback.
        if (auto* outbounds = tpl.if_contains("outbounds"); outbounds && outbounds->is_array())
            for (auto& out : outbounds->as_array())
                if (auto* o = out.if_object(); o && o->contains("protocol") && o->at("protocol") == "freedom") {
                    auto& settings = (*o)["settings"];
                    if (!settings.is_object()) settings = json::object{};
                    settings.as_object()["finalRules"] =
                        json::array{json::object{{"action", "allow"}, {"ip", json::array{"127.0.0.0/8", "::1/128"}}}};
                }
    }
    if (tpl == before) return false;
    envelope("update xray settings", {{"method", "POST"}, {"url", api_.url(settings_prefix() + "xray/update")},
                                      {"form", {{"xraySetting", json::serialize(tpl)}}}});
    return true;
}

void XuiApi::add_client(ClientApi api, Protocol protocol, long long inbound_id, const XuiUser& user) {
    json::object client{{"email", user.email}, {"limitIp", 0},         {"totalGB", 0}, {"expiryTime", 0},
                        {"enable", true},      {"tgId", 0},            {"subId", user.sub_id},
                        {"comment", ""},       {"reset", 0}};
    if (protocol == Protocol::hysteria2) {
        client["auth"] = user.credential;  // Hysteria clients carry auth, not id ("empty client ID")
    } else {
        client["id"] = user.credential;
        client["flow"] = "xtls-rprx-vision";
    }
    if (api == ClientApi::v31) {
        envelope("create user", {{"method", "POST"}, {"url", api_.url("/panel/api/clients/add")},
                                 {"json", {{"client", client}, {"inboundIds", json::array{inbound_id}}}}});
        return;
    }
    json::object settings{{"clients", json::array{client}}};
    envelope("create user", {{"method", "POST"}, {"url", api_.url("/panel/api/inbounds/addClient")},
                             {"json", {{"id", inbound_id}, {"settings", json::serialize(settings)}}}});
}

void XuiApi::delete_client(ClientApi api, long long inbound_id, const std::string& email) {
    const std::string path = api == ClientApi::v31
                                 ? "/panel/api/clients/del/" + email
                                 : "/panel/api/inbounds/" + std::to_string(inbound_id) + "/delClientByEmail/" + email;
    envelope("delete user", {{"method", "POST"}, {"url", api_.url(path)}, {"json", json::object{}}});
}

void XuiApi::list_inbounds(ClientApi api) {
    const std::string path = api == ClientApi::v31 ? "/panel/api/inbounds/list/slim" : "/panel/api/inbounds/list";
    json::object request{{"method", "GET"}, {"url", api_.url(path)}};
    auto reply = api_.call("admin call", request, {200, 401, 403, 404}, false);
    if (reply.status != 200) {  // the session is gone (panel restarted with a new secret, or expired)
        login();
        reply = api_.call("admin call", request, {200});
    }
}

std::string XuiApi::client_sub_id(const std::string& email) {
    auto v = envelope("read user", {{"method", "GET"}, {"url", api_.url("/panel/api/clients/get/" + email)}});
    return stand_panel_kit::string_member(v, kPanel, "read user", {"obj", "client", "subId"});
}

void XuiApi::set_client_enabled(const std::string& email, bool enabled) {
    const std::string operation = enabled ? "enable user" : "disable user";
    auto v = envelope(operation, {{"method", "POST"},
                                  {"url", api_.url(enabled ? "/panel/api/clients/bulkEnable" : "/panel/api/clients/bulkDisable")},
                                  {"json", {{"emails", json::array{json::string(email)}}}}});
    const auto& obj = stand_panel_kit::member(v, kPanel, operation, {"obj"});
    if (const auto* skipped = obj.is_object() ? obj.as_object().if_contains("skipped") : nullptr;
        skipped && skipped->is_array() && !skipped->as_array().empty()) {
        const std::string reason = stand_panel_kit::string_member(skipped->as_array().front(), kPanel, operation, {"reason"});
        if (reason == "client not found") no_such_client(operation, email);
        throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": " + operation + ": skipped: " + reason);
    }
}

void XuiApi::set_client_quota(const std::string& email, std::uint64_t bytes) {
    json::value v;
    try {
        v = envelope("read user", {{"method", "GET"}, {"url", api_.url("/panel/api/clients/get/" + email)}});
    } catch (const Error& e) {
        if (std::string(e.what()).find("record not found") != std::string::npos) no_such_client("limit user", email);
        throw;
    }
    // The stored record as the update's model.Client: its uuid is the client's "id"; the row id, times and
    // the WireGuard fields (a string here, a list there) stay out.
    json::object client = stand_panel_kit::member(v, kPanel, "read user", {"obj", "client"}).as_object();
    if (auto* uuid = client.if_contains("uuid"); uuid && uuid->is_string() && !uuid->as_string().empty())
        client["id"] = *uuid;
    else
        client.erase("id");
    for (const char* k : {"uuid", "createdAt", "updatedAt", "reverse", "allowedIPs"}) client.erase(k);
    client["totalGB"] = bytes;
    envelope("limit user", {{"method", "POST"}, {"url", api_.url("/panel/api/clients/update/" + email)}, {"json", client}});
}

json::object XuiApi::client_traffic(const std::string& email) {
    auto v = envelope("read traffic", {{"method", "GET"}, {"url", api_.url("/panel/api/clients/traffic/" + email)}});
    const auto& obj = stand_panel_kit::member(v, kPanel, "read traffic", {"obj"});
    if (obj.is_null()) no_such_client("read traffic", email);  // x-ui answers a null obj for an unknown email
    const std::uint64_t up = stand_panel_kit::count_member(obj, kPanel, "read traffic", {"up"});
    const std::uint64_t down = stand_panel_kit::count_member(obj, kPanel, "read traffic", {"down"});
    return {{"total_bytes", up + down}, {"up_bytes", up}, {"down_bytes", down}};
}

}  // namespace stand_3x_ui
