// A LoadSpec made ready to send: URLs parsed, targets resolved once and
// checked to be local, each link's request serialised to its final bytes
// (so the hot path only copies nothing and writes), and its source address.
#pragma once

#include "load/load_spec.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace stand::load {

// What the links to one scheme, host and port share.
struct Origin {
    boost::asio::ip::tcp::endpoint endpoint;
    bool tls = false;
    std::string sni;          // TLS server name (empty for an IP address)
    std::string verify_host;  // what the certificate must name: host or IP
    std::string authority;    // host[:port] as the URL gave it
};

// 24 bytes a link, besides its request's bytes: a 100,000-link storm fits
// its 256 bytes a link with the URL and the request (tests/perf/storm_100k.sh).
struct PreparedLink {
    std::uint32_t request_at = 0;  // the whole request (line, headers, body) in Plan::requests
    std::uint32_t request_bytes = 0;
    // Links with the same route (endpoint, source, TLS name) may share a
    // kept-alive connection; routes are numbered from 0.
    std::uint32_t route = 0;
    std::uint32_t source_v4 = 0;  // --bind-prefix source address (host byte order); 0: none
    std::uint32_t origin = 0;     // in Plan::origins
    bool tls = false;
    bool head = false;  // a HEAD request: the response has no body
};

struct Plan {
    std::vector<PreparedLink> links;
    std::vector<Origin> origins;
    std::string requests;  // every link's request, back to back
    std::uint32_t routes = 0;
    bool any_tls = false;

    std::string_view request(const PreparedLink& l) const noexcept {
        return std::string_view(requests).substr(l.request_at, l.request_bytes);
    }
    const Origin& origin(const PreparedLink& l) const noexcept { return origins[l.origin]; }
};

// Throws LoadSpecError naming the URL for a bad URL, a refused target (not
// loopback or a declared host, unless spec.allow_remote) or a name that
// does not resolve.
Plan prepare_plan(const LoadSpec& spec);

// The target rule alone, without looking anything up: throws LoadSpecError
// naming `url` when it is malformed or its host is not 127.0.0.0/8, ::1,
// localhost or a declared host (spec.declared_hosts), unless
// spec.allow_remote. A name checked here may still resolve elsewhere:
// prepare_plan checks what it resolves to.
void check_target(const std::string& url, const LoadSpec& spec);

// The source address of link k for a bind prefix "A.B": A.B.(k/250+1).(k%250+1)
// (63,750 links); for "A": A.(k/63750).((k%63750)/250+1).(k%250+1), so that
// "127" continues "127.0" with 127.1, 127.2, ... (16.3 million links).
boost::asio::ip::address_v4 bind_address(const std::string& prefix, std::uint64_t k);

// Link k's request line parts and X-Forwarded-For as prepare_plan put them in
// its request (HTTP/3 sends them as fields); the cold path: parses the URL again.
struct RequestParts {
    std::string method, target, authority, xff;
};
RequestParts request_parts(const LoadSpec& spec, std::size_t k);

// Serialises one request (exposed for tests).
std::string build_request(const LoadSpec& spec, const LinkShape& link, const std::string& target,
                          const std::string& authority, const std::string& xff);

}  // namespace stand::load
