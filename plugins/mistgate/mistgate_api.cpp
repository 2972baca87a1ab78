#include "mistgate_api.hpp"

namespace stand_mistgate {

namespace json = boost::json;
using stand::cpp::Error;

namespace {

constexpr const char* kApiPrefix = "/api/mistgate.admin.v1.";
constexpr const char* kStepUpRequired = "mistgate.admin.v1.StepUpRequired";
// The message of FinishStepUp's 401 for a wrong or used code (auth/stepup.go).
constexpr const char* kStepUpFailed = "step-up failed";

std::vector<int> any_http_status() {
    std::vector<int> all{200};
    for (int s = 400; s < 600; ++s) all.push_back(s);
    return all;
}

std::string text_member(const json::value& v, const char* key) {
    const auto* o = v.if_object();
    const auto* m = o ? o->if_contains(key) : nullptr;
    return m && m->is_string() ? std::string(m->as_string()) : std::string();
}

// A Connect error detail of this type is attached.
bool has_detail(const json::value& v, const char* type) {
    const auto* o = v.if_object();
    const auto* d = o ? o->if_contains("details") : nullptr;
    if (d == nullptr || !d->is_array()) return false;
    for (const auto& detail : d->as_array())
        if (text_member(detail, "type") == type) return true;
    return false;
}

// The SignInFailure detail of a refused PasswordLogin, as words.
std::string sign_in_failure(const json::value& v) {
    const auto* o = v.if_object();
    const auto* d = o ? o->if_contains("details") : nullptr;
    if (d == nullptr || !d->is_array()) return {};
    for (const auto& detail : d->as_array()) {
        const auto* dbg = detail.is_object() ? detail.as_object().if_contains("debug") : nullptr;
        if (dbg == nullptr || !dbg->is_object()) continue;
        const auto& g = dbg->as_object();
        std::string out;
        if (const auto* a = g.if_contains("attemptsLeft"); a && a->is_number())
            out = std::to_string(a->to_number<long long>()) + " attempt(s) left";
        if (const auto* l = g.if_contains("lockedUntilUnix")) {
            std::string until = l->is_string() ? std::string(l->as_string())
                                               : (l->is_number() ? std::to_string(l->to_number<long long>()) : "");
            if (!until.empty() && until != "0") out = "login locked until Unix time " + until;
        }
        return out;
    }
    return {};
}

// One request of `procedure` on `api`: 200 with a JSON object, or a Connect error.
RpcReply rpc_on(stand_panel_kit::AdminApi& api, const std::string& procedure, json::object body) {
    static const std::vector<int> statuses = any_http_status();
    RpcReply r;
    r.reply = api.call(procedure,
                       {{"method", "POST"}, {"url", api.url(kApiPrefix + procedure)}, {"json", std::move(body)}},
                       statuses, false);
    boost::system::error_code ec;
    auto v = json::parse(r.reply.body, ec);
    if (r.ok()) {
        if (ec || !v.is_object()) throw stand_panel_kit::bad_response(kPanel, procedure, "the body is not a JSON object", r.reply);
        r.reply.json = std::move(v);
        return r;
    }
    if (!ec) {
        r.code = text_member(v, "code");
        r.message = text_member(v, "message");
        r.reply.json = std::move(v);
    }
    return r;
}

}  // namespace

void fail(const std::string& procedure, const RpcReply& r, const std::string& what) {
    std::string text = what;
    if (!r.code.empty()) {
        if (!text.empty()) text += ": ";
        text += r.code + (r.message.empty() ? "" : ": " + r.message);
    }
    if (text.empty())
        text = r.ok() ? "unexpected answer" : "not a Connect error answer (wrong admin URL, or not Mistgate?)";
    throw stand_panel_kit::bad_response(kPanel, procedure, text, r.reply);
}

Client::Client(const stand::cpp::Host& host, const std::string& admin_url, std::string login, std::string password,
               CodeSource next_code)
    : host_(host), api_(host, kPanel, admin_url), login_(std::move(login)), password_(std::move(password)),
      next_code_(std::move(next_code)) {}

std::string Client::procedure_url(const std::string& procedure) const { return api_.url(kApiPrefix + procedure); }

RpcReply Client::rpc(const std::string& procedure, json::object body) const {
    return rpc_on(api_, procedure, std::move(body));
}

RpcReply Client::call_reply(const std::string& procedure, json::object body) {
    if (!logged_in_) password_login();
    auto r = rpc(procedure, body);
    if (r.status() == 401 && r.code == "unauthenticated") {  // not signed in: a restart, or the session expired
        host_.info("mistgate: " + procedure + ": not signed in (HTTP 401), signing in again");
        password_login();
        r = rpc(procedure, body);
    }
    if (r.status() == 403 && r.code == "permission_denied" && has_detail(r.json(), kStepUpRequired)) {
        step_up();
        r = rpc(procedure, body);
    }
    return r;
}

json::value Client::call(const std::string& procedure, json::object body) {
    auto r = call_reply(procedure, std::move(body));
    if (!r.ok()) fail(procedure, r);
    return std::move(r.reply.json);
}

std::optional<json::value> Client::call_for_user(const std::string& procedure, json::object body) {
    auto r = call_reply(procedure, std::move(body));
    if (r.status() == 404 && r.code == "not_found") return std::nullopt;
    if (!r.ok()) fail(procedure, r);
    return std::move(r.reply.json);
}

RpcReply Client::sign_in_on(stand_panel_kit::AdminApi& api) {
    const std::string op = "AuthService/PasswordLogin";
    auto r = rpc_on(api, op, {{"login", login_}, {"password", password_}, {"totpCode", next_code_()}});
    if (r.status() == 401) {
        std::string detail = sign_in_failure(r.json());
        fail(op, r, "sign-in refused for login '" + login_ + "' (wrong password or TOTP code" +
                        (detail.empty() ? "" : "; " + detail) + ")");
    }
    if (!r.ok()) fail(op, r, "sign-in failed for login '" + login_ + "'");
    return r;
}

void Client::password_login() {
    logged_in_ = false;
    api_.reset_session();
    sign_in_on(api_);
    logged_in_ = true;
}

std::string Client::browser_cookie() {
    stand_panel_kit::AdminApi browser(host_, kPanel, api_.base_url(), json::object{{"cookies", false}});
    const auto r = sign_in_on(browser);
    auto cookie = stand_panel_kit::set_cookie(r.reply);
    if (cookie.empty()) fail("AuthService/PasswordLogin", r, "signed in, but the panel set no session cookie");
    return cookie;
}

void Client::step_up() {
    const std::string op = "AuthService/FinishStepUp";
    auto r = rpc(op, {{"totpCode", next_code_()}});
    if (r.status() == 401 && r.message == kStepUpFailed)
        fail(op, r, "step-up failed: the panel refused the TOTP code of login '" + login_ +
                        "' (wrong or already used; is the clock right?). Not signing in again: every try spends a "
                        "code, and five failures lock step-up for 15 minutes");
    if (r.status() == 401) {  // not signed in: signing in counts as a step-up
        password_login();
        return;
    }
    if (r.status() == 429)
        fail(op, r, "step-up is locked after five failed codes; it opens again 15 minutes after the last one");
    if (!r.ok()) fail(op, r, "step-up refused");
}

}  // namespace stand_mistgate
