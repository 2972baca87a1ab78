// Beast clients of the built-in backend's tests (backend/backend_server_test.cpp,
// programs/backend_command_test.cpp): one coroutine per exchange on an
// io_context of its own, and the JSON the backend prints.
#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <string>

namespace stand::test {

using namespace std::chrono_literals;

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Response = http::response<http::string_body>;

inline constexpr auto kNoThrow = net::as_tuple(net::use_awaitable);

// Runs a client coroutine on its own io_context; a server that never
// answers fails the test after 10 s instead of hanging it.
template <class T>
T run_client(net::awaitable<T> client) {
    net::io_context context;
    auto result = net::co_spawn(context, std::move(client), net::use_future);
    context.run_for(10s);
    REQUIRE_MESSAGE(result.wait_for(0s) == std::future_status::ready, "the client did not finish in 10 s");
    return result.get();
}

inline http::request<http::string_body> get_request(const std::string& target, unsigned version = 11) {
    http::request<http::string_body> request{http::verb::get, target, version};
    request.set(http::field::host, "127.0.0.1");
    return request;
}

struct ExchangeThenEnd {
    Response response;
    boost::system::error_code next_read;  // reading on after the response
};

// Sends `request` on a new connection, reads the response, then tries to
// read another one: a server that closed the connection gives end_of_stream.
inline net::awaitable<ExchangeThenEnd> exchange_then_read_on(tcp::endpoint server,
                                                             http::request<http::string_body> request) {
    beast::tcp_stream stream(co_await net::this_coro::executor);
    co_await stream.async_connect(server, net::use_awaitable);
    co_await http::async_write(stream, request, net::use_awaitable);
    beast::flat_buffer buffer;
    ExchangeThenEnd out;
    co_await http::async_read(stream, buffer, out.response, net::use_awaitable);
    Response extra;
    stream.expires_after(2s);  // on a connection kept open the read ends with a timeout
    auto [error, n] = co_await http::async_read(stream, buffer, extra, kNoThrow);
    out.next_read = error;
    co_return out;
}

// One GET with "Connection: close" on a new connection.
inline net::awaitable<Response> get_once(tcp::endpoint server, std::string target) {
    auto request = get_request(target);
    request.keep_alive(false);
    auto exchange = co_await exchange_then_read_on(server, std::move(request));
    co_return exchange.response;
}

inline boost::json::object json_object(const std::string& text) {
    const boost::json::value value = boost::json::parse(text);
    REQUIRE(value.is_object());
    return value.as_object();
}

inline std::uint64_t counter(const boost::json::object& stats, const char* name) {
    REQUIRE_MESSAGE(stats.contains(name), name);
    return boost::json::value_to<std::uint64_t>(stats.at(name));
}

}  // namespace stand::test
