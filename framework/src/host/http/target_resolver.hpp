// Turns a URL's host into endpoints, and enforces that only loopback
// targets are contacted unless the user allowed remote ones.
#pragma once

#include "host/http/deadline.hpp"
#include "host/http/url.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <string_view>
#include <vector>

namespace stand::host::http {

// "localhost" or a name under ".localhost": the only names looked up without
// --allow-remote (any other lookup could already send a DNS query away).
bool is_localhost_name(std::string_view host);
// A loopback address (IPv6 without brackets) or a localhost name: a host
// load may go to without --allow-remote, decided without a lookup.
bool is_local_host(std::string_view host);

// Throws stand::cpp::Error: STAND_E_INVALID_ARGUMENT for a refused target,
// STAND_E_UNREACHABLE when the name does not resolve, STAND_E_TIMEOUT.
// Runs `ioc` until the lookup is done; no other work may be pending on it.
std::vector<boost::asio::ip::tcp::endpoint> resolve_target(boost::asio::io_context& ioc,
                                                           const Url& url, bool allow_remote,
                                                           const Deadline& deadline);

bool is_loopback(const boost::asio::ip::address& address);

}  // namespace stand::host::http
