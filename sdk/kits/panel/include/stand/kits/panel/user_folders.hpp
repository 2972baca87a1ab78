// Data folders of a process that runs as another user (PostgreSQL refuses
// root): the folder is made theirs, and the folders above it that stand made
// (the plugin's data dir, which the host keeps 0700) become searchable by
// others (o+x: enter, never list), so that the user can reach it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>

namespace stand_panel_kit {

struct UserIds {
    uid_t uid = 0;
    gid_t gid = 0;
};

// The user's ids; nullopt when there is no such user.
std::optional<UserIds> find_user(const std::string& name);

// Creates `folder` (emptied first when `empty_it`), owned by `who`. Every
// folder from `folder`'s parent up to `stand_root` (stand's own, which
// contains it) gets o+x; the folders above `stand_root` must already be
// searchable by `who`, else Error(STAND_E_IO) names the first that is not
// and what to do. `what` starts the messages.
void give_folder(const std::filesystem::path& folder, const UserIds& who, const std::filesystem::path& stand_root,
                 bool empty_it, const std::string& what);

}  // namespace stand_panel_kit
