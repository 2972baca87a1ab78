// Opens a listening TCP socket for the backend (and the live metrics
// listener), and what an accept loop does after a failed accept.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <string_view>

namespace stand::backend {

// Throws BackendError naming `role` ("data", "control"), the address and
// the system's reason (address in use, not an address of this machine...).
boost::asio::ip::tcp::acceptor bind_listener(boost::asio::io_context& context,
                                             const boost::asio::ip::tcp::endpoint& endpoint, std::string_view role);

// A failed accept that is not the listener closing is usually a full file
// descriptor table; waiting a little lets connections end instead of spinning.
boost::asio::awaitable<void> pause_after_failed_accept();

}  // namespace stand::backend
