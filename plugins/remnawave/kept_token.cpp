#include "kept_token.hpp"

#include <boost/json.hpp>
#include <openssl/evp.h>

#include <fstream>
#include <sstream>

namespace stand_remnawave {

namespace json = boost::json;

namespace {

std::string fingerprint(const stand_panel_kit::Credentials& c) {
    const std::string text = c.username + '\n' + c.password;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_Digest(text.data(), text.size(), digest, &n, EVP_sha256(), nullptr) != 1) return {};
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < n; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0x0f];
    }
    return out;
}

}  // namespace

std::optional<KeptToken> load_kept_token(const std::filesystem::path& file, const stand_panel_kit::Credentials& credentials) {
    std::ifstream in(file);
    if (!in) return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    boost::system::error_code ec;
    auto v = json::parse(ss.str(), ec);
    const auto* o = ec ? nullptr : v.if_object();
    if (!o) return std::nullopt;
    const auto* uuid = o->if_contains("uuid");
    const auto* token = o->if_contains("token");
    const auto* owner = o->if_contains("credentials_sha256");
    if (!uuid || !token || !owner || !uuid->is_string() || !token->is_string() || !owner->is_string())
        return std::nullopt;
    if (owner->as_string() != fingerprint(credentials)) return std::nullopt;
    return KeptToken{std::string(uuid->as_string()), std::string(token->as_string())};
}

void save_kept_token(const std::filesystem::path& file, const stand_panel_kit::Credentials& credentials, const KeptToken& token) {
    stand_panel_kit::write_private_file(file, json::serialize(json::object{{"uuid", token.uuid},
                                                                    {"token", token.token},
                                                                    {"credentials_sha256", fingerprint(credentials)}}));
}

}  // namespace stand_remnawave
