#include "target/subscription_links.hpp"

#include "text/trim.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>

namespace stand::target {
namespace {

constexpr std::array<std::string_view, 8> kCheckedSchemes = {"hysteria2", "hy2", "vless", "vmess",
                                                             "trojan",    "ss",  "tuic",  "wireguard"};

// The scheme of a link, SCHEME://REST (SCHEME [a-z][a-z0-9+.-]*, REST not
// empty and without blanks); "" when `line` is not one. Read by hand, as a
// regex recursed once per character of the link (a long one overflowed the
// stack).
std::string_view link_scheme(std::string_view line) {
    const auto end = line.find("://");
    if (end == std::string_view::npos || end == 0) return {};
    const auto scheme = line.substr(0, end), rest = line.substr(end + 3);
    const auto scheme_char = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '.' || c == '-';
    };
    if (scheme[0] < 'a' || scheme[0] > 'z' || !std::all_of(scheme.begin(), scheme.end(), scheme_char)) return {};
    if (rest.empty() || std::any_of(rest.begin(), rest.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
        return {};
    return scheme;
}

// The text of the body: itself when it holds a link or starts with a comment
// ('#' is outside base64), else its base64 decoding.
std::optional<std::string> body_text(std::string_view body, bool& was_base64) {
    if (body.find("://") != std::string_view::npos || text::trim(body).starts_with('#')) return std::string(body);
    auto decoded = base64_decode(body);
    was_base64 = decoded.has_value();
    return decoded;
}

// What the body held besides links stand checks, for the message of a
// subscription without any.
std::string seen_text(const SubscriptionLinks& out) {
    std::string seen = unchecked_text(out.unchecked);
    if (out.comments > 0)
        seen += (seen.empty() ? "" : " and ") + std::to_string(out.comments) + " comment line(s)";
    return seen;
}

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (char c : text) {
        int v;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '+' || c == '-') v = 62;
        else if (c == '/' || c == '_') v = 63;
        else if (c == '=' || c == '\n' || c == '\r' || c == ' ') continue;
        else return std::nullopt;
        buffer = (buffer << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xffU);
        }
    }
    return out;
}

std::span<const std::string_view> checked_schemes() { return kCheckedSchemes; }

// Blank and '#' lines are skipped and a link of an unknown scheme is passed
// over, as the clients' own subscription readers do: v2rayN
// (ServiceLib/Handler/ConfigHandler.cs, AddBatchServersCommon: empty lines
// dropped, each other line trimmed and resolved by its scheme prefix in
// Fmt/FmtHandler.cs ResolveConfig, a line it cannot resolve skipped) and
// NekoBox (sub/GroupUpdater.cpp, RawUpdater::update: each line trimmed, a
// line of no known prefix adds nothing). sing-box's own apps import whole
// sing-box JSON profiles, not link lists. Unlike them, stand fails a line
// that is neither a link nor a comment: a panel that mixes text into its
// links serves clients something they silently drop.
SubscriptionLinks parse_subscription_body(std::string_view body) {
    SubscriptionLinks out;
    const auto text = body_text(body, out.was_base64);
    if (!text) {
        out.problem = "the body is neither base64 nor link text";
        return out;
    }
    std::size_t start = 0;
    while (start < text->size()) {
        auto end = text->find('\n', start);
        const std::string line(text::trim(std::string_view(*text).substr(start, end == std::string::npos ? end : end - start)));
        start = end == std::string::npos ? text->size() : end + 1;
        if (line.empty()) continue;
        const std::string_view scheme = link_scheme(line);
        if (line.starts_with('#')) {
            ++out.comments;
        } else if (scheme.empty()) {
            if (out.problem.empty()) out.problem = "not a link: '" + line.substr(0, 80) + "'";
        } else if (std::find(kCheckedSchemes.begin(), kCheckedSchemes.end(), scheme) == kCheckedSchemes.end()) {
            ++out.unchecked[std::string(scheme)];
        } else {
            out.links.push_back(line);
        }
    }
    if (out.links.empty() && out.problem.empty()) {
        const std::string seen = seen_text(out);
        out.problem = seen.empty() ? "no links in the body"
                                   : "no link stand checks, only " + seen + " (docs/subscriptions.md)";
    }
    return out;
}

std::string unchecked_text(const std::map<std::string, std::size_t>& unchecked) {
    std::vector<std::pair<std::string, std::size_t>> sorted(unchecked.begin(), unchecked.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string out;
    for (const auto& [scheme, n] : sorted) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + scheme + "://";
    return out;
}

}  // namespace stand::target
