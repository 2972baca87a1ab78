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

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <string_view>

namespace stand::backend {

namespace http = boost::beast::http;

namespace {

// Requests may carry a body (POST); the backend reads and drops it.
constexpr std::uint64_t kMaxRequestBody = 64ull << 20;

// The tunnel sink: /small is a fixed 1 KiB body with Content-Length; /zero
// streams zeros until the client goes away, /zero?bytes=N exactly N of them
// with Content-Length (traffic_accounting counts what it pushed).
constexpr std::string_view kSmallPath = "/small";
constexpr std::string_view kZeroPath = "/zero";
const std::string kSmallBody(1024, 'x');
constexpr std::size_t kZeroChunk = 64 * 1024;
constexpr std::uint64_t kMaxZeroBytes = 1ull << 40;

// The N of /zero?bytes=N (only that parameter); nullopt for a bare /zero;
// kMaxZeroBytes + 1 for anything else, answered 400.
std::optional<std::uint64_t> zero_bytes_of(std::string_view target) {
    const auto q = target.find('?');
    if (q == std::string_view::npos) return std::nullopt;
    const std::string_view query = target.substr(q + 1);
    constexpr std::string_view key = "bytes=";
    std::uint64_t n = 0;
    if (query.substr(0, key.size()) != key) return kMaxZeroBytes + 1;
    const char* first = query.data() + key.size();
    const char* last = query.data() + query.size();
    const auto [end, ec] = std::from_chars(first, last, n);
    if (ec != std::errc() || end != last || first == last || n > kMaxZeroBytes) return kMaxZeroBytes + 1;
    return n;
}

boost::asio::awaitable<void> stream_zeros(boost::beast::tcp_stream& stream, const DataPlane& plane,
                                          std::optional<std::uint64_t> count) {
    static const std::array<char, kZeroChunk> zeros{};
    const std::string header = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n" +
                               (count ? "Content-Length: " + std::to_string(*count) + "\r\n" : std::string()) +
                               "Connection: close\r\n\r\n";
    stream.expires_never();
    auto [error, n] = co_await boost::asio::async_write(stream, boost::asio::buffer(header), kAwaitNoThrow);
    if (error) co_return;
    plane.counters.requests.fetch_add(1, std::memory_order_relaxed);
    std::uint64_t left = count.value_or(0);
    while (!count || left > 0) {
        const std::size_t chunk = count ? static_cast<std::size_t>(std::min<std::uint64_t>(left, kZeroChunk)) : kZeroChunk;
        auto [write_error, written] =
            co_await boost::asio::async_write(stream, boost::asio::buffer(zeros.data(), chunk), kAwaitNoThrow);
        if (write_error) co_return;
        left -= count ? chunk : 0;
    }
    boost::system::error_code ignored;
    stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
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
        const auto zero_bytes = zero_bytes_of(parser.get().target());
        const bool bad_zero = zero_bytes && *zero_bytes > kMaxZeroBytes;
        if (path_of(parser.get()) == kZeroPath && parser.get().method() == http::verb::get && !bad_zero) {
            co_await stream_zeros(stream, plane, zero_bytes);
            co_return;
        }
        const Reply reply = path_of(parser.get()) == kZeroPath && bad_zero
                                ? make_reply(parser.get(), http::status::bad_request, "text/plain",
                                             "/zero takes one parameter: bytes=N, N an integer 0..2^40\n")
                                : answer(parser.get(), plane);
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
