// What a subscription body holds: base64 (standard or URL-safe, padding
// optional, line breaks ignored) of text with one share link per line, as
// every panel serves it by default; plain text is accepted too. Blank lines
// and comment lines (the first non-blank character '#': "#profile-title: x",
// "#No Time Limit") are skipped, as clients skip them. The line forms and the
// schemes stand checks are documented for users in docs/subscriptions.md.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stand::target {

// nullopt when `text` has a character outside both base64 alphabets.
std::optional<std::string> base64_decode(std::string_view text);

// The share-link schemes stand reads and checks: hysteria2, hy2, vless,
// vmess, trojan, ss, tuic, wireguard.
std::span<const std::string_view> checked_schemes();

struct SubscriptionLinks {
    std::vector<std::string> links;                // the links of a checked scheme, trimmed
    std::map<std::string, std::size_t> unchecked;  // links of other schemes ("ssh", "snell"), per scheme
    std::size_t comments = 0;                      // comment lines skipped
    bool was_base64 = false;
    // "" when at least one link has a checked scheme and every line is a
    // link, a comment or blank.
    std::string problem;
};

SubscriptionLinks parse_subscription_body(std::string_view body);

// "12 ssh://, 2 snell://" (the most first); "" for none.
std::string unchecked_text(const std::map<std::string, std::size_t>& unchecked);

}  // namespace stand::target
