// One share link of a subscription (vless, vmess, trojan, ss, hysteria2,
// tuic, wireguard): the endpoint a client would connect to and the secrets
// it would present, for the checks that a link is usable by the user it was
// made for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stand::compat {

struct ShareLink {
    std::string scheme;  // "hy2" is kept as given
    std::string host;    // IPv6 without brackets
    int port = -1;       // -1: none in the link
    bool udp = false;    // hysteria2, hy2, tuic, wireguard: a QUIC/UDP endpoint
    // What the link presents as the user's secret: the decoded userinfo (and
    // its parts around ':'), ss's password, vmess's "id", a "password" or
    // "auth" query parameter.
    std::vector<std::string> credentials;
    std::string text;  // the link as given (a secret: never into a message)
};

struct ParsedShareLink {
    std::optional<ShareLink> link;
    std::string problem;  // why it did not parse, when `link` is empty
};

ParsedShareLink parse_share_link(const std::string& text);

// "" when the link names an endpoint a client could reach; else what is wrong:
// no host, a wildcard (0.0.0.0, ::), no port or port 0, or a placeholder
// host: a name RFC 2606 reserves for documentation or for names that must
// not resolve (example.com, .org, .net, *.example, *.invalid) or an unfilled
// template ("{host}", "${...}", "<...>"). localhost, loopback addresses and
// *.test names count as real: this stand tests on loopback, and a test
// node's name under .test is a deliberate choice, not a panel's default.
std::string endpoint_problem(const ShareLink& link);

bool carries_credential(const ShareLink& link, const std::string& credential);

}  // namespace stand::compat
