// The built-in backend (framework/src/backend/) on real sockets on
// 127.0.0.1 with Beast clients. `stand backend`, the command, runs as a
// child process in programs/backend_command_test.cpp.
#include "backend/backend_server.hpp"
#include "backend/host_port.hpp"

#include "backend_clients.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace stand::backend;
using namespace stand::test;
using namespace std::chrono_literals;

namespace {

namespace websocket = beast::websocket;

// The counters once `done` holds (the server counts a response after its
// write completes, which can be just after the client has read it), or as
// they are after 5 s.
BackendStats stats_when(const BackendServer& server, const std::function<bool(const BackendStats&)>& done) {
    const auto give_up = std::chrono::steady_clock::now() + 5s;
    while (std::chrono::steady_clock::now() < give_up) {
        if (done(server.stats())) break;
        std::this_thread::sleep_for(5ms);
    }
    return server.stats();
}

// `count` GETs one after another on one kept-alive connection.
net::awaitable<std::vector<Response>> keep_alive_gets(tcp::endpoint server, int count) {
    beast::tcp_stream stream(co_await net::this_coro::executor);
    co_await stream.async_connect(server, net::use_awaitable);
    beast::flat_buffer buffer;
    std::vector<Response> responses;
    for (int i = 0; i < count; ++i) {
        auto request = get_request("/item/" + std::to_string(i));
        co_await http::async_write(stream, request, net::use_awaitable);
        Response response;
        co_await http::async_read(stream, buffer, response, net::use_awaitable);
        responses.push_back(std::move(response));
    }
    co_return responses;
}

// Writes `raw` in one piece, then reads `count` responses; HEAD responses
// are marked in `head_at`.
net::awaitable<std::vector<Response>> pipelined(tcp::endpoint server, std::string raw, int count,
                                                std::vector<bool> head_at = {}) {
    beast::tcp_stream stream(co_await net::this_coro::executor);
    co_await stream.async_connect(server, net::use_awaitable);
    co_await net::async_write(stream, net::buffer(raw), net::use_awaitable);
    beast::flat_buffer buffer;
    std::vector<Response> responses;
    for (int i = 0; i < count; ++i) {
        http::response_parser<http::string_body> parser;
        parser.skip(i < static_cast<int>(head_at.size()) && head_at[i]);
        co_await http::async_read(stream, buffer, parser, net::use_awaitable);
        responses.push_back(parser.release());
    }
    co_return responses;
}

struct Echo {
    std::string data;
    bool text = false;
};

// Upgrades at `path`, sends each message and reads its echo, then closes.
net::awaitable<std::vector<Echo>> websocket_round_trips(tcp::endpoint server, std::string path,
                                                        std::vector<Echo> messages) {
    websocket::stream<beast::tcp_stream> ws(co_await net::this_coro::executor);
    co_await beast::get_lowest_layer(ws).async_connect(server, net::use_awaitable);
    co_await ws.async_handshake(format_host_port(server), path, net::use_awaitable);
    std::vector<Echo> echoes;
    for (const auto& message : messages) {
        ws.text(message.text);
        co_await ws.async_write(net::buffer(message.data), net::use_awaitable);
        beast::flat_buffer buffer;
        co_await ws.async_read(buffer, net::use_awaitable);
        echoes.push_back({beast::buffers_to_string(buffer.data()), ws.got_text()});
    }
    co_await ws.async_close(websocket::close_code::normal, net::use_awaitable);
    co_return echoes;
}

BackendOptions options_with_body(std::size_t body_bytes, unsigned threads = 1) {
    BackendOptions options;
    options.body_bytes = body_bytes;
    options.threads = threads;
    return options;
}

}  // namespace

TEST_CASE("backend HTTP: ten keep-alive requests on one connection") {
    BackendServer server(options_with_body(100));
    const auto responses = run_client(keep_alive_gets(server.listen_endpoint(), 10));
    REQUIRE(responses.size() == 10);
    for (const auto& response : responses) {
        CHECK(response.result() == http::status::ok);
        CHECK(response.keep_alive());
        CHECK(response[http::field::content_type] == "text/plain");
        CHECK(response[http::field::content_length] == "100");
        CHECK(response.body() == std::string(100, 'x'));
    }
    const auto stats = stats_when(server, [](const BackendStats& s) { return s.requests == 10; });
    CHECK(stats.accepted == 1);
    CHECK(stats.requests == 10);
    CHECK(stats_when(server, [](const BackendStats& s) { return s.open == 0; }).open == 0);  // the client closed it
}

TEST_CASE("backend HTTP: Connection: close ends each connection after its response") {
    BackendServer server(options_with_body(64, 2));  // two loops: the connections alternate between them
    for (int i = 0; i < 5; ++i) {
        auto request = get_request("/close/" + std::to_string(i));
        request.keep_alive(false);
        const auto exchange = run_client(exchange_then_read_on(server.listen_endpoint(), request));
        CHECK(exchange.response.result() == http::status::ok);
        CHECK_FALSE(exchange.response.keep_alive());
        CHECK(exchange.response.body().size() == 64);
        CHECK(exchange.next_read == http::error::end_of_stream);  // the server closed it
    }
    const auto stats = stats_when(server, [](const BackendStats& s) { return s.requests == 5 && s.open == 0; });
    CHECK(stats.accepted == 5);
    CHECK(stats.requests == 5);
    CHECK(stats.open == 0);
}

TEST_CASE("backend sink: /zero?bytes=N sends exactly N zeros with Content-Length, then closes") {
    BackendServer server(BackendOptions{});
    for (const std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{65536}, std::uint64_t{(1 << 20) + 7}}) {
        const auto exchange = run_client(exchange_then_read_on(server.listen_endpoint(),
                                                               get_request("/zero?bytes=" + std::to_string(n))));
        CHECK(exchange.response.result() == http::status::ok);
        CHECK(exchange.response[http::field::content_length] == std::to_string(n));
        CHECK(exchange.response.body() == std::string(n, '\0'));
        CHECK(exchange.next_read == http::error::end_of_stream);
    }
    for (const char* bad : {"/zero?bytes=", "/zero?bytes=-1", "/zero?bytes=1x", "/zero?size=5", "/zero?bytes=1099511627777"}) {
        INFO(bad);
        const auto exchange = run_client(exchange_then_read_on(server.listen_endpoint(), get_request(bad)));
        CHECK(exchange.response.result() == http::status::bad_request);
        CHECK(exchange.response.body().find("bytes=N") != std::string::npos);
    }
}

TEST_CASE("backend HTTP: HTTP/1.0 closes unless it asks for keep-alive") {
    BackendServer server(BackendOptions{});
    const auto plain = run_client(exchange_then_read_on(server.listen_endpoint(), get_request("/", 10)));
    CHECK(plain.response.result() == http::status::ok);
    CHECK(plain.response.version() == 10);
    CHECK_FALSE(plain.response.keep_alive());
    CHECK(plain.response.body().size() == 64);
    CHECK(plain.next_read == http::error::end_of_stream);

    auto asks = get_request("/", 10);
    asks.keep_alive(true);  // "Connection: keep-alive"
    const auto kept = run_client(exchange_then_read_on(server.listen_endpoint(), asks));
    CHECK(kept.response.keep_alive());
    CHECK(kept.next_read == beast::error::timeout);  // still open after 2 s of silence
}

TEST_CASE("backend HTTP: pipelined requests are answered in order") {
    BackendServer server(options_with_body(8));
    const std::string raw =
        "GET /one HTTP/1.1\r\nHost: x\r\n\r\n"
        "POST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
        "HEAD /three HTTP/1.1\r\nHost: x\r\n\r\n"
        "PUT /four HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    const auto responses = run_client(pipelined(server.listen_endpoint(), raw, 5, {false, false, true}));
    REQUIRE(responses.size() == 5);
    CHECK(responses[0].result() == http::status::ok);
    CHECK(responses[0].body() == "xxxxxxxx");
    CHECK(responses[1].result() == http::status::ok);
    CHECK(responses[1].body() == "xxxxxxxx");
    CHECK(responses[2].result() == http::status::ok);  // HEAD: the length without the body
    CHECK(responses[2][http::field::content_length] == "8");
    CHECK(responses[2].body().empty());
    CHECK(responses[3].result() == http::status::method_not_allowed);
    CHECK(responses[3][http::field::allow] == "GET, HEAD, POST");
    CHECK(responses[4].result() == http::status::upgrade_required);  // the websocket path wants an upgrade
    CHECK(responses[4][http::field::upgrade] == "websocket");
    CHECK_FALSE(responses[4].keep_alive());
    const auto stats = stats_when(server, [](const BackendStats& s) { return s.requests == 5; });
    CHECK(stats.accepted == 1);
    CHECK(stats.requests == 5);
}

TEST_CASE("backend websocket: echoes text and binary messages exactly") {
    BackendServer server(BackendOptions{});
    const std::vector<Echo> sent = {
        {"hello", true}, {std::string("\x00\x01\xfe\xff binary", 11), false}, {std::string(5000, 'w'), true}};
    const auto echoes = run_client(websocket_round_trips(server.listen_endpoint(), "/ws", sent));
    REQUIRE(echoes.size() == 3);
    for (std::size_t i = 0; i < sent.size(); ++i) {
        CHECK(echoes[i].data == sent[i].data);
        CHECK(echoes[i].text == sent[i].text);
    }
    const auto stats = stats_when(server, [](const BackendStats& s) { return s.ws_messages == 3 && s.open == 0; });
    CHECK(stats.accepted == 1);
    CHECK(stats.ws_sessions == 1);
    CHECK(stats.ws_messages == 3);
    CHECK(stats.requests == 0);  // the upgrade is not an HTTP response of the count
    CHECK(stats.open == 0);      // the close handshake ended the connection
}

TEST_CASE("backend websocket: the path is configurable") {
    BackendOptions options;
    options.ws_path = "/echo";
    BackendServer server(options);
    const auto echoes = run_client(websocket_round_trips(server.listen_endpoint(), "/echo", {{"ping", true}}));
    REQUIRE(echoes.size() == 1);
    CHECK(echoes[0].data == "ping");
    const auto plain = run_client(get_once(server.listen_endpoint(), "/ws"));  // an ordinary path now
    CHECK(plain.result() == http::status::ok);
    CHECK(stats_when(server, [](const BackendStats& s) { return s.ws_messages == 1; }).ws_sessions == 1);
}

TEST_CASE("backend stats: JSON on the control listener, never counted as a data connection") {
    BackendServer server(BackendOptions{});
    CHECK(server.control_endpoint() != server.listen_endpoint());
    const auto before_ms = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
    run_client(keep_alive_gets(server.listen_endpoint(), 2));
    stats_when(server, [](const BackendStats& s) { return s.requests == 2; });

    for (int i = 0; i < 3; ++i) {
        const auto response = run_client(get_once(server.control_endpoint(), "/stats"));
        REQUIRE(response.result() == http::status::ok);
        CHECK(response[http::field::content_type] == "application/json");
        const auto stats = json_object(response.body());
        CHECK(stats.size() == 6);
        CHECK(counter(stats, "accepted") == 1);
        CHECK(counter(stats, "requests") == 2);
        CHECK(counter(stats, "ws_sessions") == 0);
        CHECK(counter(stats, "ws_messages") == 0);
        CHECK(counter(stats, "open") <= 1);  // the data client may still be closing
        CHECK(counter(stats, "started_unix_ms") > 0);
        CHECK(counter(stats, "started_unix_ms") <= before_ms);
        CHECK(counter(stats, "started_unix_ms") + 60'000 > before_ms);
    }
    CHECK(server.stats().accepted == 1);
    CHECK(server.stats().requests == 2);
    CHECK(run_client(get_once(server.control_endpoint(), "/other")).result() == http::status::not_found);
}

TEST_CASE("backend options: a listener that cannot be opened is an error naming the address") {
    net::io_context context;
    tcp::acceptor taken(context, {net::ip::make_address("127.0.0.1"), 0});
    BackendOptions options;
    options.listen = taken.local_endpoint();
    CHECK_THROWS_WITH_AS(BackendServer{options},
                         doctest::Contains(("cannot listen on " + format_host_port(taken.local_endpoint())).c_str()),
                         BackendError);
    options = BackendOptions{};
    options.threads = 0;
    CHECK_THROWS_AS(BackendServer{options}, BackendError);
}

TEST_CASE("backend HOST:PORT: addresses, brackets, localhost and mistakes") {
    CHECK(parse_host_port("127.0.0.1:8080") == tcp::endpoint(net::ip::make_address("127.0.0.1"), 8080));
    CHECK(parse_host_port("localhost:0") == tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
    CHECK(parse_host_port("[::1]:65535") == tcp::endpoint(net::ip::make_address("::1"), 65535));
    CHECK(format_host_port(parse_host_port("[::1]:80")) == "[::1]:80");
    CHECK(format_host_port(parse_host_port("10.1.2.3:9")) == "10.1.2.3:9");
    for (const char* bad : {"127.0.0.1", "127.0.0.1:", ":80", "::1:80", "127.0.0.1:65536", "127.0.0.1:8x",
                            "example.com:80", "127.0.0.1:-1"})
        CHECK_THROWS_AS_MESSAGE(parse_host_port(bad), std::invalid_argument, bad);
}
