// The ABI 1.3 user calls on Mistgate's UserService (proto/mistgate/admin/v1/user.proto
// and internal/panel/access/user_rpc.go at 695c839), with the user id CreateUser
// returned ("usr_..."):
//   SetUsersEnabled {userIds, enabled}  the admin switch (status DISABLED comes
//       first: disabled > expired > limited > active); unknown ids are left out
//       of the users it answers, without an error;
//   UpdateUser {userId, quotaBytes}     the quota in bytes, 0 unlimited (not_found
//       for no such user);
//   GetUser {userId}                    user.usedBytes: up and down together in the
//       current quota period, one count (not_found for no such user).
// protojson writes 64-bit integers as strings and leaves zero values out.
#pragma once

#include "mistgate_api.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace stand_mistgate {

// false: no such user.
bool set_user_enabled(Client& c, const std::string& user_id, bool enabled);
// false: no such user.
bool set_user_quota(Client& c, const std::string& user_id, std::uint64_t quota_bytes);
// nullopt: no such user.
std::optional<std::uint64_t> used_bytes(Client& c, const std::string& user_id);

}  // namespace stand_mistgate
