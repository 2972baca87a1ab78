#include "compat/recorded_path.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace stand::compat {
namespace {

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_base64url(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_'; }

bool is_uuid(std::string_view s) {
    if (s.size() != 36) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !is_hex(s[i])) return false;
    }
    return true;
}

bool is_id(std::string_view s) {
    if (s.empty()) return false;
    if (std::all_of(s.begin(), s.end(), is_digit)) return true;
    if (is_uuid(s)) return true;
    // 22 base64url characters hold 128 random bits: a token, even one without a digit (a 43-character
    // token lacks one about once in 1,700 runs); no API word of the recorded panels is that long.
    if (s.size() >= 22 && std::all_of(s.begin(), s.end(), is_base64url)) return true;
    return s.size() >= 8 && std::all_of(s.begin(), s.end(), is_base64url) && std::any_of(s.begin(), s.end(), is_digit);
}

std::string trimmed_slashes(std::string_view s) {
    while (!s.empty() && s.front() == '/') s.remove_prefix(1);
    while (!s.empty() && s.back() == '/') s.remove_suffix(1);
    return std::string(s);
}

}  // namespace

std::string normalise_path(std::string_view path, const PathNames& names) {
    std::string out;
    for (const auto& base_path : names.base_paths) {
        const std::string base = trimmed_slashes(base_path);
        if (base.empty()) continue;
        const std::string prefix = "/" + base;
        if (path.starts_with(prefix) && (path.size() == prefix.size() || path[prefix.size()] == '/')) {
            out = "/{base}";
            path.remove_prefix(prefix.size());
            break;
        }
    }
    // Segments between slashes, keeping empty ones so that "/a/" stays "/a/".
    std::size_t start = path.starts_with('/') ? 1 : 0;
    if (start == 1) out += "/";
    if (path.size() <= start) return out.empty() ? std::string(path) : out;
    for (;;) {
        const std::size_t slash = path.find('/', start);
        const std::string_view segment = path.substr(start, slash == std::string_view::npos ? slash : slash - start);
        if (names.user_names.contains(std::string(segment))) out += "{name}";
        else if (names.user_ids.contains(std::string(segment)) || is_id(segment)) out += "{id}";
        else out += segment;
        if (slash == std::string_view::npos) break;
        out += "/";
        start = slash + 1;
    }
    return out;
}

std::set<std::string> subscription_tokens(const std::vector<std::string>& subscription_urls) {
    std::vector<std::vector<std::string>> paths;
    for (const auto& url : subscription_urls) {
        std::string_view rest = url;
        if (const auto scheme = rest.find("://"); scheme != std::string_view::npos) {
            rest.remove_prefix(scheme + 3);
            const auto slash = rest.find('/');
            rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);
        }
        rest = rest.substr(0, rest.find_first_of("?#"));
        std::vector<std::string> segments;
        for (std::size_t start = 0; start <= rest.size();) {
            const auto slash = std::min(rest.find('/', start), rest.size());
            if (slash > start) segments.emplace_back(rest.substr(start, slash - start));
            start = slash + 1;
        }
        paths.push_back(std::move(segments));
    }
    std::set<std::string> tokens;
    if (paths.size() == 1) {
        if (!paths.front().empty()) tokens.insert(paths.front().back());
        return tokens;
    }
    for (const auto& p : paths)
        for (const auto& segment : p)
            if (!std::all_of(paths.begin(), paths.end(), [&](const auto& other) {
                    return std::find(other.begin(), other.end(), segment) != other.end();
                }))
                tokens.insert(segment);
    return tokens;
}

std::string normalise_label(const std::string& label, const std::string& method, const std::string& raw_path,
                            const std::string& normalised_path) {
    return label == method + " " + raw_path ? method + " " + normalised_path : label;
}

}  // namespace stand::compat
