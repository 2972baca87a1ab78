// PasarGuard's admin API (v5, checked on the real v5.2.1), one function per
// call the adapter makes. Calls carry the bearer of the form-encoded
// /api/admin/token; a 401 (expired, or the panel's secret changed) signs in
// once more and sends the call again. Answers the adapter does not expect
// are errors naming the call.
#pragma once

#include <stand/kits/panel/admin_api.hpp>
#include <stand/kits/panel/credentials.hpp>

#include <boost/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace stand_pasarguard {

inline constexpr const char* kPanel = "pasarguard";

// What GET /api/node/{id} says of a node.
struct NodeState {
    std::string status;                     // connected, connecting, error, disabled, limited
    std::string message;                    // the panel's reason for an error ("" when none)
    std::string node_version, xray_version; // what the node reported ("" before it connected)
};

struct CreatedUser {
    std::string id, subscription_url;
    boost::json::object response;  // proxy_settings: what the links carry
};

class Api {
public:
    Api(const stand::cpp::Host& host, std::string origin, std::function<stand_panel_kit::Credentials()> credentials);

    const std::string& origin() const noexcept { return origin_; }
    // POST /api/setup/owner with a temp key from the panel's CLI; 409 (an
    // owner exists: a data dir of an earlier run) is fine.
    void set_up_owner(const std::string& temp_key);
    void sign_in();
    // A sign-in of its own, as the dashboard's browser has: its bearer token header.
    boost::json::object browser_headers();

    // The id of the group named `name`, nullopt when there is none.
    std::optional<long long> find_group(const std::string& name);
    long long create_group(const std::string& name, const std::string& inbound_tag);
    bool has_host(const std::string& remark);
    void create_host(const boost::json::object& host);
    // The id of the core config named `name` (nullopt: none), or of the
    // first whose inbounds have the tag `inbound_tag` (the default core's).
    std::optional<long long> find_core(const std::string& name);
    std::optional<long long> find_core_with_inbound(const std::string& inbound_tag);
    long long create_core(const std::string& name, const boost::json::object& config);
    // Nodes: `node` is the body of POST /api/node (name, address, port,
    // connection_type, server_ca, api_key, core_config_id, keep_alive).
    std::optional<long long> find_node(const std::string& name);
    long long create_node(const boost::json::object& node);
    void modify_node(long long id, const boost::json::object& node);
    NodeState node_state(long long id);
    // 409 (a taken username) is an error naming the duplicate.
    CreatedUser create_user(const std::string& name, long long group_id);
    // false: no such user (the panel's own 404, not a missing route).
    bool delete_user(const std::string& id);
    void list_users(int limit);
    // The user's subscription_url (GET /api/user/by-id mints it); nullopt: no such user.
    std::optional<std::string> user_subscription_url(const std::string& id);
    // PUT /api/user/by-id (UserModify, fields left out unchanged): the status
    // "disabled" or "active"; data_limit in bytes (0: none). false: no such user.
    bool modify_user(const std::string& id, const boost::json::object& changes, const std::string& op);
    // used_traffic of GET /api/user/by-id: bytes, up and down together, as the
    // panel last recorded them from its nodes; nullopt: no such user.
    std::optional<std::uint64_t> user_used_traffic(const std::string& id);

private:
    void sign_in(stand_panel_kit::AdminApi& a);
    stand_panel_kit::Reply call(const std::string& op, const boost::json::object& request, std::vector<int> expect);
    std::string url(const std::string& path) const { return origin_ + path; }

    stand::cpp::Host host_;
    std::string origin_;
    std::function<stand_panel_kit::Credentials()> credentials_;
    std::unique_ptr<stand_panel_kit::AdminApi> api_;
};

}  // namespace stand_pasarguard
