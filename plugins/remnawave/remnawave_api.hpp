// Remnawave's admin API (backend 3.x, read at 3.3.2), one function per call
// the adapter makes. Every request carries X-Forwarded-For and
// X-Forwarded-Proto: https (the backend refuses others). Calls carry an API
// token: the one kept in the data dir (kept_token.hpp), else one minted from
// a dashboard session (registering the admin on a fresh backend); a token the
// backend refuses is replaced once (the old one deleted) and the call sent
// again. Answers the adapter does not expect are errors naming the call.
#pragma once

#include "kept_token.hpp"

#include <stand/kits/panel/admin_api.hpp>
#include <stand/kits/panel/credentials.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stand_remnawave {

inline constexpr const char* kPanel = "remnawave";

// What the backend answered for a user the adapter created.
struct CreatedUser {
    std::string id, subscription_url;
    boost::json::object response;  // for the credential fields of the links
};

class Api {
public:
    Api(const stand::cpp::Host& host, std::string origin, std::filesystem::path token_file,
        std::function<stand_panel_kit::Credentials()> credentials);

    const std::string& origin() const noexcept { return origin_; }
    // Forget the token in use (a restart): the kept one is tried again first.
    void drop_session() { bearer_ = false; }
    // Headers a direct request to the backend needs (the subscription fetch).
    static const boost::json::object& forwarding();
    // What the admin dashboard's browser sends with each request (the
    // frontend's src/shared/api/axios.ts): the access token of a login of its
    // own as a bearer, X-Remnawave-Client-Type: browser, Accept: application/json,
    // and the forwarding headers its reverse proxy adds.
    boost::json::object browser_headers();

    boost::json::array internal_squads();
    void create_internal_squad(const std::string& name, const std::string& inbound_uuid);
    boost::json::array config_profiles();
    void create_config_profile(const std::string& name, const boost::json::object& config);
    boost::json::array hosts();
    void create_host(const boost::json::object& host);
    void delete_host(const std::string& uuid);
    // The SECRET_KEY a node is started with (the backend's CA, the node's
    // certificate and key, the JWT public key), base64 JSON.
    std::string node_secret_key();
    boost::json::array nodes();
    // false: refused as a taken name (400 A033: another bootstrap made it).
    bool create_node(const boost::json::object& node);
    // 400 A019 (a taken username) is an error naming the duplicate.
    CreatedUser create_user(const std::string& name, const std::string& squad);
    // false: no such user.
    bool delete_user(const std::string& id);
    void list_users(int size);
    // The user's subscriptionUrl; nullopt: no such user.
    std::optional<std::string> user_subscription_url(const std::string& id);
    // POST /api/users/{id}/actions/enable|disable (its status ACTIVE or
    // DISABLED; 200 with the user). A user already so (400 A030, A029) is
    // done. false: no such user (404 A025, or an id that is not a user id).
    bool set_user_enabled(const std::string& id, bool enabled);
    // PATCH /api/users with the numeric id and `changes` (update-user.command.ts:
    // trafficLimitBytes in bytes, 0 unlimited; fields left out unchanged). false: no such user.
    bool update_user(const std::string& id, const boost::json::object& changes, const std::string& op);
    // userTraffic.usedTrafficBytes of GET /api/users/{id}: bytes, up and down
    // together, as the backend last recorded them from its nodes; nullopt: no
    // such user (404 A063, "User with specified params not found").
    std::optional<std::uint64_t> user_used_traffic(const std::string& id);
    // A client's request for a subscriptionUrl as returned (https://
    // SUB_PUBLIC_DOMAIN/<shortUuid>, resolved when relative). When it names
    // the backend's own address, it goes there over plain HTTP with the
    // forwarding headers: the backend expects a TLS proxy in front of it and
    // serves HTTP itself.
    boost::json::object subscription(const std::string& sub_url) const;

private:
    stand_panel_kit::Reply call(const std::string& op, const boost::json::object& request, std::vector<int> expect);
    void sign_in(stand_panel_kit::AdminApi& a);
    std::string dashboard_session(stand_panel_kit::AdminApi& a, const stand_panel_kit::Credentials& c);
    std::string url(const std::string& path) const { return origin_ + path; }

    stand::cpp::Host host_;
    std::string origin_;
    std::filesystem::path token_file_;
    std::function<stand_panel_kit::Credentials()> credentials_;
    std::unique_ptr<stand_panel_kit::AdminApi> api_;
    bool bearer_ = false;
};

}  // namespace stand_remnawave
