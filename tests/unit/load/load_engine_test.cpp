// The load generator against servers of the test on 127.0.0.1: a scripted
// server for delays, stalls, chunked bodies, hangs and broken responses, and
// the TLS test server; and the engine choice. Against nginx, and the
// `stand load` command: programs/load_engine_test.cpp.
#include "load/engine_choice.hpp"
#include "load/link_pattern.hpp"
#include "load/load_engine.hpp"
#include "load/load_plan.hpp"

#include "http_test_server.hpp"
#include "load_engine_cases.hpp"
#include "load_test_support.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <set>

using namespace stand::load;
using namespace stand::test;
using namespace std::chrono_literals;

TEST_CASE("load open model: a slow server makes requests late and queued, never dropped") {
    EACH_ENGINE();
    ScriptServer server([](const std::string&) { return Script::ok("ok", 50ms); });
    LoadSpec spec = spec_for({server.url("/")}, 1, 2);
    spec.model = Model::open;
    spec.rate = 100;  // two connections at 50 ms each serve 40/s
    spec.duration = 1s;
    const LoadResult r = run_load(spec);
    CHECK(r.offered >= 99);
    CHECK(r.sent + r.unsent == r.offered);
    CHECK(r.unsent > 20);
    CHECK(r.late > 10);
    CHECK(r.max_queue > 10);
    CHECK(r.completed == r.sent);
    // Queueing counts: from the intended time it is much slower than the service.
    CHECK(hist(r.latency, "all").value_at_percentile(90) > 2 * hist(r.service, "all").value_at_percentile(90));
    bool warned = false;
    for (const auto& w : r.warnings) warned = warned || w.find("never sent") != std::string::npos;
    CHECK(warned);
}

TEST_CASE("load open model: coordinated omission is corrected") {
    EACH_ENGINE();
    // The server stalls every response for 500 ms once, 200 ms into the run.
    std::mutex mutex;
    std::chrono::steady_clock::time_point first{};
    ScriptServer server([&](const std::string&) {
        std::lock_guard lock(mutex);
        const auto now = std::chrono::steady_clock::now();
        if (first == std::chrono::steady_clock::time_point{}) first = now;
        const auto stall_begin = first + 200ms, stall_end = first + 700ms;
        auto delay = std::chrono::milliseconds(0);
        if (now >= stall_begin && now < stall_end)
            delay = std::chrono::duration_cast<std::chrono::milliseconds>(stall_end - now);
        return Script::ok("ok", delay);
    });
    LoadSpec spec = spec_for({server.url("/")}, 1, 1);
    spec.model = Model::open;
    spec.rate = 100;
    spec.duration = 1500ms;
    spec.slow_threshold = 300ms;
    const LoadResult r = run_load(spec);
    const auto corrected = hist(r.latency, "all").value_at_percentile(99);
    const auto uncorrected = hist(r.service, "all").value_at_percentile(99);
    INFO("corrected p99 " << corrected << "us, uncorrected p99 " << uncorrected << "us");
    CHECK(corrected > 300'000);
    CHECK(uncorrected < corrected / 2);
    CHECK(hist(r.service, "all").max() > 400'000);  // the stalled request itself
    CHECK(r.late > 20);
    CHECK(r.sent + r.unsent == r.offered);
    CHECK(r.slow_seconds >= 1);
}

TEST_CASE("load transport errors: timeouts, refused connections, bad responses") {
    EACH_ENGINE();
    SUBCASE("timeout") {
        ScriptServer server([](const std::string&) {
            Script s;
            s.hang = true;
            return s;
        });
        LoadSpec spec = spec_for({server.url("/hang")}, 1, 2);
        spec.timeout = 200ms;
        spec.duration = 300ms;
        const auto t0 = std::chrono::steady_clock::now();
        const LoadResult r = run_load(spec);
        CHECK(r.completed == 0);
        CHECK(r.error_count(ErrorKind::timeout) >= 2);
        CHECK(r.errors == r.sent);
        CHECK(std::chrono::steady_clock::now() - t0 < 2s);
    }
    SUBCASE("connection refused") {
        LoadSpec spec = spec_for({"http://127.0.0.1:" + std::to_string(free_port()) + "/"}, 1, 1);
        spec.max_requests = 5;
        const LoadResult r = run_load(spec);
        CHECK(r.error_count(ErrorKind::connect_refused) == 5);
        CHECK(r.completed == 0);
    }
    SUBCASE("not HTTP") {
        ScriptServer server([](const std::string&) {
            Script s;
            s.pieces.push_back({0ms, "SSH-2.0-OpenSSH\r\n\r\n"});
            return s;
        });
        LoadSpec spec = spec_for({server.url("/")}, 1, 1);
        spec.max_requests = 3;
        const LoadResult r = run_load(spec);
        CHECK(r.error_count(ErrorKind::parse) == 3);
    }
    SUBCASE("closed mid-body") {
        ScriptServer server([](const std::string&) {
            Script s;
            s.pieces.push_back({0ms, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort"});
            s.close_after = true;
            return s;
        });
        LoadSpec spec = spec_for({server.url("/")}, 1, 1);
        spec.max_requests = 3;
        const LoadResult r = run_load(spec);
        CHECK(r.error_count(ErrorKind::closed) == 3);
    }
}

TEST_CASE("load bodies: chunked in pieces, and a server that closes kept-alive connections") {
    EACH_ENGINE();
    SUBCASE("chunked") {
        ScriptServer server([](const std::string&) {
            Script s;
            s.pieces.push_back({0ms, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"});
            s.pieces.push_back({2ms, "400\r\n" + std::string(1024, 'a') + "\r\n"});
            s.pieces.push_back({1ms, "3;ext=1\r\nabc\r\n0\r\n\r\n"});
            return s;
        });
        LoadSpec spec = spec_for({server.url("/")}, 1, 2);
        spec.max_requests = 20;
        const LoadResult r = run_load(spec);
        CHECK(r.completed == 20);
        CHECK(r.body.total == 20 * 1027);
        CHECK(r.body.min == 1027);
        CHECK(server.connections() == 2);  // chunked framing keeps the connection
    }
    SUBCASE("stale keep-alive") {
        ScriptServer server([](const std::string&) {
            Script s = Script::ok();
            s.close_after = true;  // claims keep-alive, then closes
            return s;
        });
        LoadSpec spec = spec_for({server.url("/")}, 1, 1);
        spec.max_requests = 10;
        const LoadResult r = run_load(spec);
        CHECK(r.completed == 10);
        CHECK(r.errors == 0);
        CHECK(r.stale_retries >= 1);
    }
}

TEST_CASE("load TLS: verification is explicit, sessions resume only when asked") {
    g_engine = Engine::automatic;
    const auto cert = TestCertificate::make("localhost", "DNS:localhost,IP:127.0.0.1");
    auto server_tls = cert.server_context();
    HttpTestServer server([](const TestRequest&) { return reply(200, "secure"); }, server_tls.get());

    LoadSpec spec = spec_for({server.url("/")}, 1, 1);
    spec.max_requests = 5;
    SUBCASE("verified by default: a self-signed certificate fails") {
        const LoadResult r = run_load(spec);
        CHECK(r.completed == 0);
        CHECK(r.error_count(ErrorKind::tls) == 5);
    }
    SUBCASE("--insecure") {
        spec.tls.insecure = true;
        const LoadResult r = run_load(spec);
        CHECK(r.completed == 5);
        CHECK(status(r, 200) == 5);
        CHECK(r.body.total == 5 * 6);
        CHECK(r.tls);
        CHECK(r.tls_handshakes == 1);
        CHECK(r.engine == "asio");  // chosen, and said why
        CHECK(r.engine_note.find("https://") != std::string::npos);
    }
    SUBCASE("--cacert trusts it, by IP and by name") {
        TempDir dir;
        const auto pem = dir.path() / "ca.pem";
        std::ofstream(pem) << cert.cert_pem;
        spec.tls.ca_file = pem.string();
        spec.links.push_back(Link{"GET", server.url("/", "localhost"), {}, {}});
        const LoadResult r = run_load(spec);
        CHECK(r.completed == 5);
        CHECK(r.errors == 0);
    }
    SUBCASE("resumption") {
        spec.tls.insecure = true;
        spec.keepalive = false;
        spec.max_requests = 8;
        const LoadResult full = run_load(spec);
        CHECK(full.completed == 8);
        CHECK(full.tls_handshakes == 8);
        CHECK(full.tls_resumed == 0);
        spec.tls.resume = true;
        const LoadResult resumed = run_load(spec);
        CHECK(resumed.completed == 8);
        CHECK(resumed.tls_resumed >= 6);
    }
}

TEST_CASE("load engine choice: io_uring for plain links, Asio where it cannot be, and why") {
    LoadSpec spec = spec_for({"http://127.0.0.1:1/"});
    Plan plain;
    Plan tls;
    tls.any_tls = true;
    spec.engine = Engine::automatic;
    CHECK(choose_engine(spec, plain, "").engine == Engine::uring);
    CHECK(choose_engine(spec, plain, "").note.empty());
    const EngineChoice refused = choose_engine(spec, plain, "io_uring_setup: Operation not permitted");
    CHECK(refused.engine == Engine::asio);
    CHECK(refused.note == "io_uring refused here: io_uring_setup: Operation not permitted");
    CHECK(choose_engine(spec, tls, "").engine == Engine::asio);
    CHECK(choose_engine(spec, tls, "").note == "https:// links: io_uring carries plain HTTP/1.1 only");

    spec.engine = Engine::uring;
    CHECK(choose_engine(spec, plain, "").engine == Engine::uring);
    CHECK_THROWS_WITH_AS(choose_engine(spec, plain, "io_uring_setup: Operation not permitted"),
                         "--engine uring: io_uring is refused here (io_uring_setup: Operation not permitted)",
                         LoadSpecError);
    CHECK_THROWS_AS(choose_engine(spec, tls, ""), LoadSpecError);

    spec.engine = Engine::asio;
    CHECK(choose_engine(spec, plain, "").engine == Engine::asio);
    CHECK(choose_engine(spec, plain, "").note.empty());  // asked for: nothing to explain
    spec.engine = Engine::automatic;
    spec.http3.enabled = true;
    CHECK(choose_engine(spec, plain, "").note.empty());
}

TEST_CASE("load open model: a rate far below one request in the window sends the one at the start and ends") {
    EACH_ENGINE();
    // A tick 1e19 ns away once overflowed the cast to int64: the run spun at a full CPU, deaf to SIGTERM.
    LoadSpec spec = spec_for({"http://127.0.0.1:1/"});
    spec.model = Model::open;
    spec.rate = 1e-10;
    spec.duration = 200ms;
    const auto t0 = std::chrono::steady_clock::now();
    const LoadResult r = run_load(spec);
    CHECK(std::chrono::steady_clock::now() - t0 < 5s);
    CHECK(r.offered == 1);
    CHECK(r.sent == 1);
}
