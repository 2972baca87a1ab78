#include "mistgate_users.hpp"

namespace stand_mistgate {

namespace json = boost::json;

bool set_user_enabled(Client& c, const std::string& user_id, bool enabled) {
    const std::string op = "UserService/SetUsersEnabled";
    const auto reply = c.call(op, {{"userIds", json::array{user_id.c_str()}}, {"enabled", enabled}});
    const auto* users = reply.as_object().if_contains("users");  // left out when empty
    if (users == nullptr) return false;
    if (!users->is_array())
        throw stand::cpp::Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": " + op + ": users is not a list: " +
                                                          stand_panel_kit::excerpt(json::serialize(*users)));
    for (const auto& u : users->as_array())
        if (stand_panel_kit::id_member(u, kPanel, op, {"id"}) == user_id) return true;
    return false;
}

bool set_user_quota(Client& c, const std::string& user_id, std::uint64_t quota_bytes) {
    // protojson's form of a uint64: its digits as a string
    return c.call_for_user("UserService/UpdateUser", {{"userId", user_id}, {"quotaBytes", std::to_string(quota_bytes)}})
        .has_value();
}

std::optional<std::uint64_t> used_bytes(Client& c, const std::string& user_id) {
    const std::string op = "UserService/GetUser";
    const auto reply = c.call_for_user(op, {{"userId", user_id}});
    if (!reply) return std::nullopt;
    const auto& user = stand_panel_kit::member(*reply, kPanel, op, {"user"});
    if (user.is_object() && !user.as_object().contains("usedBytes")) return 0;  // zero is left out
    return stand_panel_kit::count_member(user, kPanel, op, {"usedBytes"});
}

}  // namespace stand_mistgate
