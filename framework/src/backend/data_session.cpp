#include "backend/data_session.hpp"

#include "backend/await_token.hpp"
#include "backend/http_reply.hpp"
#include "backend/read_request.hpp"
#include "backend/websocket_echo.hpp"

#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <array>
#include <string_view>

namespace stand::backend {

namespace http = boost::beast::http;

namespace {

// Requests may carry a body (POST); the backend reads and drops it.
constexpr std::uint64_t kMaxRequestBody = 64ull << 20;

// The tunnel sink: /small is a fixed 1 KiB body with Content-Length; /zero
// streams zeros until the client goes away.
constexpr std::string_view kSmallPath = "/small";
constexpr std::string_view kZeroPath = "/zero";
const std::string kSmallBody(1024, 'x');
constexpr std::size_t kZeroChunk = 64 * 1024;

boost::asio::awaitable<void> stream_zeros(boost::beast::tcp_stream& stream, const DataPlane& plane) {
    static const std::array<char, kZeroChunk> zeros{};
    static constexpr std::string_view header =
        "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n";
    stream.expires_never();
    auto [error, n] = co_await boost::asio::async_write(stream, boost::asio::buffer(header), kAwaitNoThrow);
    if (error) co_return;
    plane.counters.requests.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
        auto [write_error, written] = co_await boost::asio::async_write(stream, boost::asio::buffer(zeros), kAwaitNoThrow);
        if (write_error) co_return;
    }
}

Reply answer(const Request& request, const DataPlane& plane) {
    if (path_of(request) == kSmallPath && request.method() == http::verb::get)
        return make_reply(request, http::status::ok, "application/octet-stream", kSmallBody);
    if (path_of(request) == plane.ws_path) {
        Reply reply = make_reply(request, http::status::upgrade_required, "text/plain", "websocket only\n");
        reply.set(http::field::upgrade, "websocket");
        return reply;
    }
    switch (request.method()) {
    case http::verb::get:
    case http::verb::head:
    case http::verb::post:
        return make_reply(request, http::status::ok, "text/plain", plane.body);
    default: {
        Reply reply = make_reply(request, http::status::method_not_allowed, "text/plain", "method not allowed\n");
        reply.set(http::field::allow, "GET, HEAD, POST");
        return reply;
    }
    }
}

}  // namespace

boost::asio::awaitable<void> serve_data_connection(boost::asio::ip::tcp::socket socket, const DataPlane& plane) {
    OpenConnection open(plane.counters);
    boost::beast::tcp_stream stream(std::move(socket));
    boost::beast::flat_buffer buffer;
    for (;;) {
        RequestParser parser;
        parser.body_limit(kMaxRequestBody);
        // The client closing, or sending something Beast cannot parse, ends the connection.
        if (auto error = co_await read_request(stream, buffer, parser)) co_return;

        if (boost::beast::websocket::is_upgrade(parser.get()) && path_of(parser.get()) == plane.ws_path) {
            co_await echo_websocket(std::move(stream), parser.release(), plane.counters);
            co_return;
        }
        if (path_of(parser.get()) == kZeroPath && parser.get().method() == http::verb::get) {
            co_await stream_zeros(stream, plane);
            co_return;
        }
        const Reply reply = answer(parser.get(), plane);
        auto [write_error, written] = co_await http::async_write(stream, reply, kAwaitNoThrow);
        if (write_error) co_return;
        plane.counters.requests.fetch_add(1, std::memory_order_relaxed);
        if (reply.need_eof()) {
            boost::system::error_code ignored;
            stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
            co_return;
        }
    }
}

}  // namespace stand::backend
