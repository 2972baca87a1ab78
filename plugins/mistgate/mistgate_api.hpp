// The Mistgate admin API as the adapter uses it (Mistgate's proto/mistgate/admin/v1/*.proto;
// tests/doubles/README.md, Mistgate): Connect-RPC with JSON,
// `POST <admin url>api/mistgate.admin.v1.<Service>/<Method>`, the owner's
// `__Host-sid` session cookie (PasswordLogin: login + password + TOTP), and a
// step-up (FinishStepUp with a fresh TOTP code) only when the panel asks for
// one: 403 permission_denied with a mistgate.admin.v1.StepUpRequired detail
// (Mistgate internal/panel/auth/stepup.go). Signing in counts as a step-up.
// Errors are `{"code","message"[,"details"]}` with the Connect HTTP status; a
// 401 is either "not signed in" (sign in again) or, from FinishStepUp, "step-up
// failed" (a wrong or used code: never answered by signing in again, which
// spends codes; five lock step-up for 15 minutes, then 429).
#pragma once

#include <stand/kits/panel/admin_api.hpp>

#include <functional>
#include <optional>
#include <string>

namespace stand_mistgate {

inline constexpr const char* kPanel = "mistgate";

// One answer of a procedure: 200 with its message, or a Connect error.
struct RpcReply {
    stand_panel_kit::Reply reply;
    std::string code;     // Connect error code ("already_exists"); "" on 200 or a non-Connect body
    std::string message;  // Connect error message
    int status() const { return reply.status; }
    bool ok() const { return reply.status == 200; }
    const boost::json::value& json() const { return reply.json; }
};

// The error for a reply the adapter cannot use: panel, procedure, what, HTTP status, body excerpt.
[[noreturn]] void fail(const std::string& procedure, const RpcReply& r, const std::string& what = "");

class Client {
public:
    // The next unused TOTP code of the owner (waits for a new step when the current one was used).
    using CodeSource = std::function<std::string()>;

    // `admin_url`: "http://host:port/<admin path>/".
    Client(const stand::cpp::Host& host, const std::string& admin_url, std::string login, std::string password,
           CodeSource next_code);

    const std::string& login_name() const noexcept { return login_; }
    const std::string& password() const noexcept { return password_; }

    // One request of `procedure` ("UserService/ListUsers"), no recovery. Transport
    // errors and non-JSON 200 answers throw; Connect errors are returned.
    RpcReply rpc(const std::string& procedure, boost::json::object body) const;

    // An authenticated call: signs in first when this client has no session; on
    // 401 "not signed in" (the session is gone) signs in once and retries; on
    // 403 with a StepUpRequired detail steps up once and retries.
    RpcReply call_reply(const std::string& procedure, boost::json::object body);
    // call_reply that fails on anything but 200.
    boost::json::value call(const std::string& procedure, boost::json::object body);
    // call() of a procedure about one user: nullopt when the panel answers
    // not_found (404; user_rpc.go's notFound("user")).
    std::optional<boost::json::value> call_for_user(const std::string& procedure, boost::json::object body);

    void password_login();  // AuthService/PasswordLogin with a fresh code
    // A sign-in of its own, as the admin UI's browser has: PasswordLogin with a
    // fresh code on a session apart from this client's; the `__Host-sid` cookie
    // it set, as "name=value". This client's session is left as it is.
    std::string browser_cookie();
    // The absolute URL of `procedure` ("FleetService/Overview").
    std::string procedure_url(const std::string& procedure) const;
    // AuthService/FinishStepUp with a fresh code. "step-up failed" and the lock
    // (429) are errors that say so; "not signed in" signs in, which counts as one.
    void step_up();
    // FinishSetup (done by the adapter) signed this client in.
    void signed_in() { logged_in_ = true; }
    bool logged_in() const noexcept { return logged_in_; }

private:
    // PasswordLogin with a fresh code on `api`; an error unless the panel signed in.
    RpcReply sign_in_on(stand_panel_kit::AdminApi& api);

    stand::cpp::Host host_;
    mutable stand_panel_kit::AdminApi api_;  // rpc() is one request: no state of the client changes
    std::string login_, password_;
    CodeSource next_code_;
    bool logged_in_ = false;
};

}  // namespace stand_mistgate
