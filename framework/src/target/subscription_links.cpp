#include "target/subscription_links.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <regex>

namespace stand::target {

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

SubscriptionLinks parse_subscription_body(std::string_view body) {
    static const std::array<std::string_view, 8> kSchemes = {"hysteria2", "hy2", "vless", "vmess",
                                                             "trojan",    "ss",  "tuic",  "wireguard"};
    static const std::regex kLink(R"(^([a-z][a-z0-9+.-]*)://([^\s]+)$)");
    SubscriptionLinks out;
    std::string text;
    if (body.find("://") != std::string_view::npos) {
        text = std::string(body);
    } else if (auto decoded = base64_decode(body)) {
        text = *decoded;
        out.was_base64 = true;
    } else {
        out.problem = "the body is neither base64 nor link text";
        return out;
    }
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find('\n', start);
        std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? text.size() : end + 1;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::smatch m;
        if (!std::regex_match(line, m, kLink)) {
            if (out.problem.empty()) out.problem = "not a link: '" + line.substr(0, 80) + "'";
        } else if (std::find(kSchemes.begin(), kSchemes.end(), m[1].str()) == kSchemes.end()) {
            if (out.problem.empty()) out.problem = "unknown link scheme '" + m[1].str() + "://'";
        }
        out.links.push_back(line);
    }
    if (out.links.empty() && out.problem.empty()) out.problem = "no links in the body";
    return out;
}

}  // namespace stand::target
