// What a subscription body holds: base64 (standard or URL-safe, padding
// optional, line breaks ignored) of text with one share link per line, as
// every panel serves it by default; plain link text is accepted too.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stand::target {

// nullopt when `text` has a character outside both base64 alphabets.
std::optional<std::string> base64_decode(std::string_view text);

struct SubscriptionLinks {
    std::vector<std::string> links;  // non-empty lines
    bool was_base64 = false;
    std::string problem;             // "" when every line is a link with a known scheme
};

// Known share-link schemes: hysteria2, hy2, vless, vmess, trojan, ss, tuic, wireguard.
SubscriptionLinks parse_subscription_body(std::string_view body);

}  // namespace stand::target
