// The live-metrics listener's limits (live/listener_limits.hpp): its share
// of descriptors, its pace, the cap on a real socket, and the repetition's
// note when scrapers pressed it (scenario/listener_note.hpp; issue 52, item 3).
#include "cli/metrics_listen.hpp"
#include "live/listener_limits.hpp"
#include "live/live_figures.hpp"
#include "live/metrics_server.hpp"
#include "scenario/listener_note.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace stand::live;
using namespace std::chrono_literals;

namespace {

// Waits until `done` holds or a second passed.
template <class Done>
bool within_a_second(Done done) {
    const auto until = std::chrono::steady_clock::now() + 1s;
    while (!done() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(5ms);
    return done();
}

}  // namespace

TEST_CASE("metrics listener: at most 16 connections, one per 64 descriptors under a low limit, at least 1") {
    CHECK(connection_cap(1024) == 16);
    CHECK(connection_cap(20000) == 16);
    CHECK(connection_cap(256) == 4);
    CHECK(connection_cap(100) == 1);
    CHECK(connection_cap(0) == 1);
    CHECK(connection_cap_here() >= 1);
}

TEST_CASE("metrics listener: the pace lets a burst through, then one operation per 1/rate") {
    Pace pace(10, 3);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(pace.wait_at(t0) == 0ns);
    CHECK(pace.wait_at(t0) == 0ns);
    CHECK(pace.wait_at(t0) == 0ns);
    CHECK(pace.wait_at(t0) == 100ms);
    CHECK(pace.wait_at(t0) == 200ms);
    CHECK(pace.wait_at(t0 + 200ms) == 100ms);  // the two reserved went at 100 and 200 ms
    CHECK(pace.wait_at(t0 + 10s) == 0ns);       // a quiet while refills the burst, no more
    CHECK(pace.wait_at(t0 + 10s) == 0ns);
    CHECK(pace.wait_at(t0 + 10s) == 0ns);
    CHECK(pace.wait_at(t0 + 10s) == 100ms);
}

TEST_CASE("metrics listener: a connection beyond the cap is closed when accepted and counted") {
    LiveFigures figures("capped");
    MetricsServer server({boost::asio::ip::make_address("127.0.0.1"), 0}, figures);
    const std::size_t cap = connection_cap_here();
    CHECK(figures.listener_load().cap == cap);
    boost::asio::io_context io;
    std::vector<std::unique_ptr<boost::asio::ip::tcp::socket>> held;
    for (std::size_t i = 0; i < cap; ++i) {
        held.push_back(std::make_unique<boost::asio::ip::tcp::socket>(io));
        held.back()->connect(server.endpoint());
    }
    boost::asio::ip::tcp::socket extra(io);
    extra.connect(server.endpoint());
    char byte = 0;
    boost::system::error_code error;
    boost::asio::read(extra, boost::asio::buffer(&byte, 1), error);  // returns when the listener closes it
    CHECK(error == boost::asio::error::eof);
    CHECK(within_a_second([&] { return figures.listener_load().refused == 1; }));

    // One of the held ones is answered: the cap refuses, it does not stall.
    const std::string request = "GET /metrics HTTP/1.1\r\nHost: stand\r\nConnection: close\r\n\r\n";
    boost::asio::write(*held.front(), boost::asio::buffer(request));
    std::string answer(64, '\0');
    const std::size_t got = boost::asio::read(*held.front(), boost::asio::buffer(answer), error);
    CHECK(answer.substr(0, std::min<std::size_t>(got, 15)) == "HTTP/1.1 200 OK");
    CHECK(within_a_second([&] { return figures.listener_load().requests == 1; }));
}

TEST_CASE("metrics listener: a repetition notes refused and paced scrapes, not a quiet scraper") {
    ListenerLoad quiet{.requests = 12, .timed_out = 1, .cap = 16};
    CHECK_FALSE(stand::scenario::listener_note(quiet, 12, "a rep 1").has_value());
    ListenerLoad pressed{.requests = 170, .paced = 150, .refused = 584, .timed_out = 4, .cap = 4};
    const auto note = stand::scenario::listener_note(pressed, 4.2, "a rep 1");
    REQUIRE(note.has_value());
    CHECK(note->id == "metrics-listener-load");
    CHECK(note->scope == "a rep 1");
    CHECK(note->message ==
          "scrapers pressed the --metrics-listen listener during the repetition: 170 requests answered in 4 s (40/s), "
          "150 accepts or requests waited for its pace of 50/s, 584 connections refused at its cap of 4, 4 closed "
          "after 5 s without a whole request; its work shared the machine with the measurement");
    const ListenerLoad later{.requests = 180, .paced = 150, .refused = 590, .timed_out = 4, .cap = 4};
    const ListenerLoad during = later.since(pressed);
    CHECK(during.requests == 10);
    CHECK(during.refused == 6);
    CHECK(during.paced == 0);
    CHECK(during.cap == 4);
}

TEST_CASE("metrics listener: a listener off loopback says it is reachable from other machines") {
    using boost::asio::ip::make_address;
    CHECK(stand::cli::exposure_notice(make_address("127.0.0.1")).empty());
    CHECK(stand::cli::exposure_notice(make_address("::1")).empty());
    CHECK(stand::cli::exposure_notice(make_address("0.0.0.0")) ==
          "listening on every interface (0.0.0.0): reachable from other machines");
    CHECK(stand::cli::exposure_notice(make_address("::")) ==
          "listening on every interface (::): reachable from other machines");
    CHECK(stand::cli::exposure_notice(make_address("192.0.2.7")) ==
          "listening on 192.0.2.7, not loopback: reachable from other machines");
}
