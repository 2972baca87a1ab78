// Absolute http(s) URLs as stand.http/1 accepts them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace stand::host::http {

struct Url {
    std::string text;    // the whole URL without its fragment
    std::string scheme;  // "http" or "https"
    std::string host;    // lower-case name or address, IPv6 without brackets
    bool host_is_ip = false;
    std::uint16_t port = 0;  // explicit or the scheme's default
    std::string target;  // origin-form request target: path (at least "/") and query
    std::string path;    // the path alone

    // "host", "host:port", "[::1]:port": the Host header value.
    std::string authority() const;
    // Connections are shared between requests with the same origin.
    std::string origin() const;
};

// Throws stand::cpp::Error(STAND_E_INVALID_ARGUMENT) naming `field`.
Url parse_url(std::string_view text, std::string_view field = "url");

// Resolves a Location header value against the URL that answered with it.
Url resolve_url(const Url& base, std::string_view reference);

}  // namespace stand::host::http
