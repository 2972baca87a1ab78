#include "backend/bind_listener.hpp"

#include "backend/await_token.hpp"
#include "backend/backend_error.hpp"
#include "backend/host_port.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>

#include <chrono>
#include <string>

namespace stand::backend {

boost::asio::ip::tcp::acceptor bind_listener(boost::asio::io_context& context,
                                             const boost::asio::ip::tcp::endpoint& endpoint, std::string_view role) {
    using boost::asio::ip::tcp;
    tcp::acceptor acceptor(context);
    boost::system::error_code error;
    const char* step = "open";
    acceptor.open(endpoint.protocol(), error);
    if (!error) acceptor.set_option(tcp::acceptor::reuse_address(true), error);
    if (!error) {
        step = "bind";
        acceptor.bind(endpoint, error);
    }
    if (!error) {
        step = "listen";
        acceptor.listen(tcp::acceptor::max_listen_connections, error);
    }
    if (error)
        throw BackendError("cannot listen on " + format_host_port(endpoint) + " (" + std::string(role) +
                           " listener, " + step + "): " + error.message());
    return acceptor;
}

boost::asio::awaitable<void> pause_after_failed_accept() {
    boost::asio::steady_timer timer(co_await boost::asio::this_coro::executor, std::chrono::milliseconds(10));
    co_await timer.async_wait(kAwaitNoThrow);
}

}  // namespace stand::backend
