// A LoadSpec made ready to send: URLs parsed, targets resolved once and
// checked to be local, each link's request serialised to its final bytes
// (so the hot path only copies nothing and writes), and its source address.
#pragma once

#include "load/load_spec.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stand::load {

struct PreparedLink {
    std::string url;
    std::string request;  // the whole request: line, headers, body
    boost::asio::ip::tcp::endpoint endpoint;
    std::optional<boost::asio::ip::address> source;  // --bind-prefix
    bool tls = false;
    bool head = false;     // a HEAD request: the response has no body
    std::string sni;       // TLS server name (empty for an IP address)
    std::string verify_host;  // what the certificate must name: host or IP
    // The request's parts, for HTTP/3 (which does not send `request`).
    std::string method;
    std::string authority;
    std::string target;
    std::string xff;             // X-Forwarded-For from the pattern; empty: none
    const Link* link = nullptr;  // the spec's link (headers, body)
    // Links with the same route (endpoint, source, TLS name) may share a
    // kept-alive connection; routes are numbered from 0.
    std::uint32_t route = 0;
};

struct Plan {
    std::vector<PreparedLink> links;
    std::uint32_t routes = 0;
    bool any_tls = false;
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

// The source address of link k for a bind prefix "A.B": A.B.(k/250+1).(k%250+1).
boost::asio::ip::address_v4 bind_address(const std::string& prefix, std::uint64_t k);

// Serialises one request (exposed for tests).
std::string build_request(const LoadSpec& spec, const Link& link, const std::string& target,
                          const std::string& authority, const std::string& xff);

}  // namespace stand::load
