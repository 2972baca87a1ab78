#include "backend/websocket_echo.hpp"

#include "backend/await_token.hpp"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <chrono>

namespace stand::backend {

namespace websocket = boost::beast::websocket;

boost::asio::awaitable<void> echo_websocket(boost::beast::tcp_stream stream, Request upgrade,
                                            BackendCounters& counters) {
    stream.expires_never();  // the websocket stream keeps its own timeouts
    websocket::stream<boost::beast::tcp_stream> ws(std::move(stream));
    // Like the HTTP side, idle sessions stay open: a benchmark may hold many.
    websocket::stream_base::timeout timeouts;
    timeouts.handshake_timeout = std::chrono::seconds(30);
    timeouts.idle_timeout = websocket::stream_base::none();
    timeouts.keep_alive_pings = false;
    ws.set_option(timeouts);
    auto [accept_error] = co_await ws.async_accept(upgrade, kAwaitNoThrow);
    if (accept_error) co_return;
    counters.ws_sessions.fetch_add(1, std::memory_order_relaxed);

    boost::beast::flat_buffer buffer;
    for (;;) {
        // A close frame from the client ends the read with websocket::error::closed
        // after Beast has answered it.
        auto [read_error, read_bytes] = co_await ws.async_read(buffer, kAwaitNoThrow);
        if (read_error) co_return;
        ws.text(ws.got_text());
        auto [write_error, written] = co_await ws.async_write(buffer.data(), kAwaitNoThrow);
        if (write_error) co_return;
        counters.ws_messages.fetch_add(1, std::memory_order_relaxed);
        buffer.consume(buffer.size());
    }
}

}  // namespace stand::backend
