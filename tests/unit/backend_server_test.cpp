// The built-in backend (framework/src/backend/) on real sockets on
// 127.0.0.1 with Beast clients, and `stand backend` as a child process.
#include "backend/backend_server.hpp"
#include "backend/host_port.hpp"

#include "test_paths.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace stand::backend;
using namespace std::chrono_literals;

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Response = http::response<http::string_body>;

constexpr auto kNoThrow = net::as_tuple(net::use_awaitable);

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

http::request<http::string_body> get_request(const std::string& target, unsigned version = 11) {
    http::request<http::string_body> request{http::verb::get, target, version};
    request.set(http::field::host, "127.0.0.1");
    return request;
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

struct ExchangeThenEnd {
    Response response;
    boost::system::error_code next_read;  // reading on after the response
};

// Sends `request` on a new connection, reads the response, then tries to
// read another one: a server that closed the connection gives end_of_stream.
net::awaitable<ExchangeThenEnd> exchange_then_read_on(tcp::endpoint server, http::request<http::string_body> request) {
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

// One GET with "Connection: close" on a new connection.
net::awaitable<Response> get_once(tcp::endpoint server, std::string target) {
    auto request = get_request(target);
    request.keep_alive(false);
    auto exchange = co_await exchange_then_read_on(server, std::move(request));
    co_return exchange.response;
}

boost::json::object json_object(const std::string& text) {
    const boost::json::value value = boost::json::parse(text);
    REQUIRE(value.is_object());
    return value.as_object();
}

std::uint64_t counter(const boost::json::object& stats, const char* name) {
    REQUIRE_MESSAGE(stats.contains(name), name);
    return boost::json::value_to<std::uint64_t>(stats.at(name));
}

BackendOptions options_with_body(std::size_t body_bytes, unsigned threads = 1) {
    BackendOptions options;
    options.body_bytes = body_bytes;
    options.threads = threads;
    return options;
}

// `stand ARGS...` with stdout and stderr on pipes; killed if still running
// at the end of the test.
class StandProcess {
public:
    explicit StandProcess(const std::vector<std::string>& args) {
        REQUIRE(::pipe2(out_, O_CLOEXEC) == 0);
        REQUIRE(::pipe2(err_, O_CLOEXEC) == 0);
        ::fcntl(err_[0], F_SETFL, O_NONBLOCK);  // stderr_text() must not wait for a live process
        std::vector<std::string> all = {stand::test::stand_binary().string()};
        all.insert(all.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : all) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, out_[1], STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&actions, err_[1], STDERR_FILENO);
        const int rc = ::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(out_[1]);
        ::close(err_[1]);
        REQUIRE_MESSAGE(rc == 0, "cannot start ", all[0]);
    }
    ~StandProcess() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        ::close(out_[0]);
        ::close(err_[0]);
    }
    StandProcess(const StandProcess&) = delete;
    StandProcess& operator=(const StandProcess&) = delete;

    pid_t pid() const { return pid_; }

    // The next line of stdout, without its newline; nullopt at the end of
    // the output or after `timeout`.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout = 10s) {
        const auto give_up = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (auto newline = stdout_.find('\n'); newline != std::string::npos) {
                std::string line = stdout_.substr(0, newline);
                stdout_.erase(0, newline + 1);
                return line;
            }
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
            if (left <= 0ms) return std::nullopt;
            pollfd fd{out_[0], POLLIN, 0};
            if (::poll(&fd, 1, static_cast<int>(left.count())) <= 0) continue;
            char chunk[4096];
            const ssize_t n = ::read(out_[0], chunk, sizeof chunk);
            if (n <= 0) return std::nullopt;
            stdout_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    // The exit status, or -1 if it did not exit within `timeout`.
    int wait_exit(std::chrono::milliseconds timeout = 10s) {
        const auto give_up = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < give_up) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            std::this_thread::sleep_for(10ms);
        }
        return -1;
    }

    // What the process wrote to stderr so far (all of it once it has exited).
    std::string stderr_text() {
        std::string text;
        char chunk[4096];
        ssize_t n = 0;
        while ((n = ::read(err_[0], chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<std::size_t>(n));
        return text;
    }

private:
    int out_[2] = {-1, -1};
    int err_[2] = {-1, -1};
    pid_t pid_ = -1;
    std::string stdout_;
};

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

TEST_CASE("backend command: ready line, a request, SIGTERM, final counters") {
    StandProcess stand({"backend", "--body-bytes", "10", "--threads", "2"});
    const auto ready_line = stand.read_line();
    REQUIRE_MESSAGE(ready_line.has_value(), "no ready line; stderr: ", stand.stderr_text());
    const auto ready = json_object(*ready_line);
    CHECK(ready.size() == 6);
    CHECK(ready.at("ws_path").as_string() == "/ws");
    CHECK(counter(ready, "body_bytes") == 10);
    CHECK(counter(ready, "threads") == 2);
    CHECK(counter(ready, "pid") == static_cast<std::uint64_t>(stand.pid()));
    const auto listen = parse_host_port(std::string(ready.at("listen").as_string()));
    const auto control = parse_host_port(std::string(ready.at("control").as_string()));
    CHECK(listen.address() == net::ip::make_address("127.0.0.1"));
    CHECK(listen.port() != 0);
    CHECK(control.port() != 0);
    CHECK(control.port() != listen.port());

    const auto response = run_client(get_once(listen, "/"));
    CHECK(response.result() == http::status::ok);
    CHECK(response.body() == std::string(10, 'x'));
    const auto live = json_object(run_client(get_once(control, "/stats")).body());
    CHECK(counter(live, "accepted") == 1);

    REQUIRE(::kill(stand.pid(), SIGTERM) == 0);
    const auto final_line = stand.read_line();
    REQUIRE(final_line.has_value());
    const auto final_stats = json_object(*final_line);
    CHECK(counter(final_stats, "accepted") == 1);
    CHECK(counter(final_stats, "requests") == 1);
    CHECK(stand.wait_exit() == 0);
}

TEST_CASE("backend command: refuses a non-loopback listener without --allow-remote") {
    StandProcess stand({"backend", "--listen", "8.8.8.8:80"});
    CHECK_FALSE(stand.read_line().has_value());  // no ready line
    CHECK(stand.wait_exit() == 2);
    const std::string error = stand.stderr_text();
    CHECK(error.find("--allow-remote") != std::string::npos);
    CHECK(error.find("8.8.8.8:80") != std::string::npos);
}

TEST_CASE("backend command: a port in use and bad numbers") {
    net::io_context context;
    tcp::acceptor taken(context, {net::ip::make_address("127.0.0.1"), 0});
    const std::string address = format_host_port(taken.local_endpoint());
    {
        StandProcess stand({"backend", "--listen", address});
        CHECK(stand.wait_exit() == 1);  // a runtime failure, not a usage error
        CHECK(stand.stderr_text().find("cannot listen on " + address) != std::string::npos);
    }
    {
        StandProcess stand({"backend", "--threads", "0"});
        CHECK(stand.wait_exit() == 2);
        CHECK(stand.stderr_text().find("--threads") != std::string::npos);
    }
    {
        StandProcess stand({"backend", "--listen", "127.0.0.1"});
        CHECK(stand.wait_exit() == 2);
        CHECK(stand.stderr_text().find("HOST:PORT") != std::string::npos);
    }
}
