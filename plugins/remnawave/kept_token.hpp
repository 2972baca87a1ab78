// The backend's API token, kept in the data dir (mode 0600) so that each
// authenticate() reuses it instead of minting a new one. It is bound to the
// admin credentials it was minted with (a SHA-256 of them is kept beside
// it): an instance with other credentials never picks it up.
#pragma once

#include <stand/kits/panel/credentials.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace stand_remnawave {

struct KeptToken {
    std::string uuid;   // for DELETE /api/tokens/{uuid} when it is replaced
    std::string token;  // the bearer; never logged
};

// The token kept in `file` for `credentials`; nothing when there is none,
// it is unreadable, or it was minted with other credentials.
std::optional<KeptToken> load_kept_token(const std::filesystem::path& file, const stand_panel_kit::Credentials& credentials);
void save_kept_token(const std::filesystem::path& file, const stand_panel_kit::Credentials& credentials, const KeptToken& token);

}  // namespace stand_remnawave
