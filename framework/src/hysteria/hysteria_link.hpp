// hysteria2:// (or hy2://) share links as subscriptions carry them:
//   hysteria2://[auth@]host[:port][/]?[key=value&...][#name]
// Keys read: sni, insecure (Go ParseBool forms), pinSHA256, obfs
// (salamander), obfs-password. Others (fm, ech, ...) are kept in `ignored`.
// A port list ("443,5000-6000": port hopping) uses its first port. A
// pinSHA256 alone authenticates the server (quic/quic_tls.hpp), so a
// self-signed core that a panel pins (3x-ui v3.6) needs no insecure=1.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace stand::hysteria {

class LinkError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct HysteriaLink {
    std::string auth;  // percent-decoded userinfo ("user:pass" for userpass auth)
    std::string host;  // IPv6 without brackets
    std::uint16_t port = 443;
    bool port_hopping = false;  // the link listed several ports; `port` is the first
    std::string sni;            // empty: the host name (none for an address)
    bool insecure = false;
    std::string pin_sha256;     // normalised: lower-case hex
    std::string obfs;           // "" or "salamander"
    std::string obfs_password;
    std::string name;           // the fragment, decoded
    std::vector<std::string> ignored;  // query keys this client does not use
};

// Throws LinkError naming the part that is wrong.
HysteriaLink parse_hysteria_link(const std::string& text);

}  // namespace stand::hysteria
