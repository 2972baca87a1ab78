// One admin API call of a panel over the host's stand.http/1, checked
// against what the panel really answers. Anything else becomes
// STAND_E_BAD_RESPONSE naming the panel, the operation, the status and a
// short excerpt of the body, so a user sees which call of which panel broke.
//
//   stand_panel_kit::AdminApi api(host, "3x-ui", "http://127.0.0.1:2053");
//   auto r = api.call("login", {{"method","POST"},{"url",api.url("/login")},{"json",...}}, {200});
//   const auto& obj = stand_panel_kit::member(r.json, "3x-ui", "login", "obj");
#pragma once

#include <stand/stand.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace stand_panel_kit {

struct Reply {
    int status = 0;
    boost::json::object response;  // the host's response object (headers, body, elapsed_ms, ...)
    boost::json::value json;       // the body parsed as JSON (null when not asked for)
    std::string body;
};

class AdminApi {
public:
    AdminApi(const stand::cpp::Host& host, std::string panel, std::string base_url,
             const boost::json::object& session_options = {{"cookies", true}});

    const std::string& panel() const noexcept { return panel_; }
    const std::string& base_url() const noexcept { return base_url_; }
    std::string url(const std::string& path) const { return base_url_ + path; }

    // Sends `request` (stand.http/1 request JSON; "label" is set to `operation`
    // and `headers` are merged under the request's own). The status must be
    // one of `expect`; with `parse_json` a body must be JSON (an empty one
    // gives null). A status of the sign-in hook's (below) that `expect` does
    // not list runs the hook once and sends the request again.
    Reply call(const std::string& operation, boost::json::object request, std::vector<int> expect,
               bool parse_json = true);

    // How the panel is signed in to again when a session or token is
    // refused (a restarted panel forgot its sessions, a token expired):
    // `sign_in` gets this API (to log in and set_header a new token); the
    // calls it makes never run it again. `refused` says which answers mean
    // that (default: HTTP 401); only those `expect` does not list count.
    void on_refused(std::function<void(AdminApi&)> sign_in, std::function<bool(const Reply&)> refused = {});

    // Headers added to every request (e.g. a bearer token or a CSRF token).
    void set_header(const std::string& name, const std::string& value) { headers_[name] = value; }
    void remove_header(const std::string& name) { headers_.erase(name); }
    // The value set_header gave `name`, or "" when none.
    std::string header(const std::string& name) const {
        const auto* v = headers_.if_contains(name);
        return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
    }
    // A fresh session: a new cookie jar and new connections (after a restart).
    void reset_session();

private:
    stand::cpp::Host host_;
    std::string panel_;
    std::string base_url_;
    boost::json::object session_options_;
    boost::json::object headers_;
    std::unique_ptr<stand::cpp::HttpSession> session_;
    std::function<void(AdminApi&)> sign_in_;
    std::function<bool(const Reply&)> refused_;
    bool signing_in_ = false;

    Reply send(const std::string& operation, boost::json::object request) const;
};

// The error for an answer the panel does not document.
stand::cpp::Error bad_response(const std::string& panel, const std::string& operation, const std::string& what,
                               const Reply& reply);
// The first 200 bytes of a body, on one line.
std::string excerpt(const std::string& body);
// The "name=value" of the cookie a reply set (its last Set-Cookie, attributes
// left off), "" when it set none: a session to hand on as a Cookie header.
std::string set_cookie(const Reply& reply);

// Members of a JSON reply, each an error naming panel/operation/path when absent or of the wrong type.
const boost::json::value& member(const boost::json::value& v, const std::string& panel, const std::string& operation,
                                 std::initializer_list<const char*> path);
std::string string_member(const boost::json::value& v, const std::string& panel, const std::string& operation,
                          std::initializer_list<const char*> path);
// A string or an integer id as text.
std::string id_member(const boost::json::value& v, const std::string& panel, const std::string& operation,
                      std::initializer_list<const char*> path);
// A count (of bytes, say): an integer >= 0, or its decimal digits as a string
// (protojson writes 64-bit integers so).
std::uint64_t count_member(const boost::json::value& v, const std::string& panel, const std::string& operation,
                           std::initializer_list<const char*> path);

}  // namespace stand_panel_kit
