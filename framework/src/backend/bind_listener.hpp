// Opens a listening TCP socket for the backend.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <string_view>

namespace stand::backend {

// Throws BackendError naming `role` ("data", "control"), the address and
// the system's reason (address in use, not an address of this machine...).
boost::asio::ip::tcp::acceptor bind_listener(boost::asio::io_context& context,
                                             const boost::asio::ip::tcp::endpoint& endpoint, std::string_view role);

}  // namespace stand::backend
