// "HOST:PORT" for the backend's listeners. HOST is an IPv4 literal, an IPv6
// literal in brackets ([::1]:8080) or "localhost" (127.0.0.1); names are not
// resolved, so choosing a listener never sends a DNS query.
#pragma once

#include <boost/asio/ip/tcp.hpp>

#include <string>
#include <string_view>

namespace stand::backend {

// Throws std::invalid_argument saying what is wrong with `text`.
boost::asio::ip::tcp::endpoint parse_host_port(std::string_view text);

// 127.0.0.1:8080, [::1]:8080.
std::string format_host_port(const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace stand::backend
