// poll_until_ready: the "also" checks of one round and the stop on a
// process of the system that ended.
#include "target/readiness_poll.hpp"

#include "host/process/process_manager.hpp"
#include "http_test_server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <csignal>
#include <string>

namespace {

namespace json = boost::json;
using Clock = std::chrono::steady_clock;
using stand::host::HttpPolicy;
using stand::host::HttpService;
using stand::target::poll_until_ready;
using stand::test::HttpTestServer;
using stand::test::TestRequest;
using stand::test::reply;

const std::atomic<bool> kNever{false};

// A loopback port nothing listens on (bound once, then closed).
unsigned short closed_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor a(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return a.local_endpoint().port();
}

stand::target::ReadyResult poll(HttpService& http, const json::object& readiness, std::chrono::milliseconds budget,
                                  const stand::target::ExitWatch& exits = {}) {
    const auto t0 = Clock::now();
    return poll_until_ready(http, readiness, t0, std::chrono::milliseconds(20), std::chrono::milliseconds(500),
                            t0 + budget, kNever, exits);
}

std::string timeout_message(HttpService& http, const json::object& readiness) {
    try {
        poll(http, readiness, std::chrono::milliseconds(300));
    } catch (const stand::target::ReadinessTimeout& e) {
        return e.what();
    }
    return "ready";
}

}  // namespace

TEST_CASE("readiness: every also check must succeed in the same round") {
    std::atomic<int> sub_requests{0};
    HttpTestServer server([&](const TestRequest& r) {
        if (r.target() == "/sub") return reply(++sub_requests <= 3 ? 503 : 404);
        return reply(200, "ok");
    });
    HttpService http(HttpPolicy{});
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor core(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    const std::string core_at = "127.0.0.1:" + std::to_string(core.local_endpoint().port());

    json::object readiness{{"url", server.url("/")},
                           {"also", json::array{json::object{{"url", server.url("/sub")}, {"expect_status", {404}}},
                                                json::object{{"tcp", core_at}}}}};
    auto ready = poll(http, readiness, std::chrono::seconds(10));
    CHECK(ready.tries == 4);  // the subscription check failed the first three rounds
    CHECK(sub_requests.load() == 4);
    CHECK(ready.seconds > 0);
}

TEST_CASE("readiness: a timeout names the also item still failing and its last answer") {
    HttpTestServer server([](const TestRequest& r) { return reply(r.target() == "/sub" ? 503 : 200); });
    HttpService http(HttpPolicy{});
    const auto port = closed_port();

    auto message = timeout_message(http, {{"url", server.url("/")},
                                          {"also", json::array{json::object{{"url", server.url("/sub")}}}}});
    CHECK(message.find("not ready: readiness.also[0] " + server.url("/sub") + " did not succeed in") == 0);
    CHECK(message.find("last: HTTP 503") != std::string::npos);

    const std::string tcp = "127.0.0.1:" + std::to_string(port);
    message = timeout_message(http, {{"url", server.url("/")}, {"also", json::array{json::object{{"tcp", tcp}}}}});
    CHECK(message.find("readiness.also[0] tcp " + tcp + " did not succeed") != std::string::npos);
    CHECK(message.find("refused") != std::string::npos);

    // the main request failing is named as "readiness"
    message = timeout_message(http, {{"url", "http://127.0.0.1:" + std::to_string(port) + "/"},
                                     {"also", json::array{json::object{{"tcp", tcp}}}}});
    CHECK(message.find("not ready: readiness http://127.0.0.1:" + std::to_string(port) + "/ did not succeed") == 0);
}

TEST_CASE("readiness: malformed also entries are refused with their path") {
    HttpService http(HttpPolicy{});
    auto refused = [&](json::value also) {
        try {
            poll(http, {{"url", "http://127.0.0.1:1/"}, {"also", also}}, std::chrono::milliseconds(100));
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        } catch (const std::exception& e) {
            return std::string("other: ") + e.what();
        }
        return std::string("accepted");
    };
    CHECK(refused(json::object{}) == "readiness.also: expected an array of checks");
    CHECK(refused(json::array{1}) == "readiness.also[0]: expected an object");
    CHECK(refused(json::array{json::object{{"tcp", "nohost"}}}) ==
          "readiness.also[0].tcp: expected \"host:port\", got \"nohost\"");
    CHECK(refused(json::array{json::object{{"method", "GET"}}}).find("readiness.also[0]: expected a \"url\"") == 0);
}

TEST_CASE("readiness: a tcp check follows the HTTP client's loopback rule") {
    HttpTestServer server([](const TestRequest&) { return reply(200); });
    HttpService http(HttpPolicy{});
    auto message = timeout_message(http, {{"url", server.url("/")},
                                          {"also", json::array{json::object{{"tcp", "192.0.2.1:80"}}}}});
    CHECK(message.find("readiness.also[0] tcp 192.0.2.1:80 did not succeed") != std::string::npos);
    CHECK(message.find("refusing non-local target '192.0.2.1'") != std::string::npos);
}

TEST_CASE("readiness: a process of the system that exits stops the wait at once with its status and log") {
    stand::test::TempDir dir;
    stand::host::ProcessManager processes(dir.path(), [](const std::string&) {
        return std::vector<std::filesystem::path>{};
    });
    const auto log = dir.path() / "panel.log";
    processes.spawn({{"argv", {"sh", "-c", "echo starting; echo 'OSError: [Errno 98] Address already in use' >&2; exit 3"}},
                     {"output", log.string()}});
    HttpService http(HttpPolicy{});
    const auto t0 = Clock::now();
    std::string message;
    try {
        poll(http, {{"url", "http://127.0.0.1:" + std::to_string(closed_port()) + "/"}}, std::chrono::seconds(60),
             [&] { return processes.ended(); });
    } catch (const stand::target::ReadinessExited& e) {
        message = e.what();
    }
    CHECK(Clock::now() - t0 < std::chrono::seconds(10));
    CHECK(message.find("not ready: a process of the system ended ") == 0);
    CHECK(message.find("sh (pid ") != std::string::npos);
    CHECK(message.find(") exited with status 3; the end of its log " + log.string() + ":\nstarting\nOSError: [Errno 98] "
                       "Address already in use") != std::string::npos);
}

TEST_CASE("ended processes: only held children that ended, signals named, log tails bounded") {
    stand::test::TempDir dir;
    stand::host::ProcessManager processes(dir.path(), [](const std::string&) {
        return std::vector<std::filesystem::path>{};
    });
    auto running = processes.spawn({{"argv", {"sleep", "30"}}});
    auto released = processes.spawn({{"argv", {"true"}}});
    auto killed = processes.spawn({{"argv", {"sleep", "30"}}});
    stand_process_status status{};
    processes.wait(released, -1, status);
    processes.release(released);
    processes.signal(killed, SIGKILL);
    processes.wait(killed, -1, status);
    auto ended = processes.ended();
    REQUIRE(ended.size() == 1);
    CHECK(ended[0].name == "sleep");
    CHECK(ended[0].signaled);
    CHECK(ended[0].code == SIGKILL);
    CHECK(stand::host::describe_exit(ended[0]).find("was killed by signal 9 (SIGKILL); the end of its log ") !=
          std::string::npos);
    CHECK(stand::host::describe_exit(ended[0]).find(":\n(empty)") != std::string::npos);
    auto again = stand::host::ended_process_from_json(stand::host::to_json(ended[0]));
    CHECK(again.pid == ended[0].pid);
    CHECK(again.output == ended[0].output);
    processes.release(running);
    processes.release(killed);

    // at most max_lines lines, "..." when cut
    const auto log = dir.path() / "long.log";
    auto talker = processes.spawn({{"argv", {"sh", "-c", "for i in 1 2 3 4 5; do echo line$i; done; exit 1"}},
                                   {"output", log.string()}});
    processes.wait(talker, -1, status);
    auto text = stand::host::describe_exit(processes.ended().front(), 2);
    CHECK(text.substr(text.find(":\n")) == ":\n...\nline4\nline5");
}
