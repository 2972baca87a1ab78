// The load generator against a real nginx on 127.0.0.1 (Debian's nginx):
// counts, connections, identities, warm-up, the stop flag, and the `stand
// load` command. Against servers of the test: load/load_engine_test.cpp.
#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "load/link_pattern.hpp"
#include "load/load_engine.hpp"
#include "load/load_plan.hpp"

#include "load/load_engine_cases.hpp"
#include "load_test_support.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <iostream>
#include <set>

using namespace stand::load;
using namespace stand::test;
using namespace std::chrono_literals;

#define REQUIRE_NGINX()                                       \
    if (!Nginx::available()) {                                \
        MESSAGE("skipped: /usr/sbin/nginx is not installed"); \
        return;                                               \
    }

TEST_CASE("load closed model: counts, status mix, round robin, keep-alive") {
    REQUIRE_NGINX();
    EACH_ENGINE();
    Nginx nginx;
    LoadSpec spec = spec_for({nginx.url("/"), nginx.url("/429")}, 2, 4);
    spec.max_requests = 400;
    const LoadResult r = run_load(spec);
    CHECK(r.sent == 400);
    CHECK(r.completed == 400);
    CHECK(r.errors == 0);
    CHECK(status(r, 200) == 200);
    CHECK(status(r, 429) == 200);
    CHECK(r.requests_per_link == std::vector<std::uint64_t>{200, 200});
    CHECK(hist(r.latency, "2xx").count() == 200);
    CHECK(hist(r.latency, "4xx").count() == 200);
    CHECK(hist(r.latency, "all").count() == 400);
    CHECK(hist(r.service, "all").count() == 400);  // closed model: service time == latency
    CHECK(r.body.total == 200 * 2 + 200 * 9);       // "ok" and "slow down", read whole
    CHECK(r.body.min == 2);
    CHECK(r.body.max == 9);
    CHECK(r.connections_opened == 4);
    CHECK(r.cpu.us_per_request > 0);
    CHECK(r.engine == engine_name(g_engine));
    CHECK(r.engine_note.empty());
    CHECK(r.offered == 400);
    const auto log = nginx.log();
    CHECK(log.size() == 400);
    std::set<std::string> conns;
    for (const auto& e : log) conns.insert(e.connection);
    CHECK(conns.size() == 4);  // kept alive: one per connection

    const auto j = r.to_json();
    CHECK(j.at("schema") == "stand.load/1");
    CHECK(j.at("requests").at("completed") == 400);
    CHECK(j.at("status_counts").at("429") == 200);
    CHECK(j.at("latency_us").at("4xx").at("count") == 200);
}

TEST_CASE("load closed model: a duration-bound run and its per-second series") {
    REQUIRE_NGINX();
    EACH_ENGINE();
    Nginx nginx;
    // The same endpoint by address and by name: plain connections are shared.
    LoadSpec spec = spec_for({nginx.url("/"), "http://localhost:" + std::to_string(nginx.port()) + "/"}, 2, 4);
    spec.duration = 1200ms;
    const LoadResult r = run_load(spec);
    CHECK(r.completed > 100);
    CHECK(r.connections_opened == 4);
    CHECK(r.sent == r.completed + r.errors);
    CHECK(r.errors == 0);
    CHECK(r.window_s == doctest::Approx(1.2).epsilon(0.05));
    CHECK(r.elapsed_s >= r.window_s);
    CHECK(r.elapsed_s < 1.5);
    REQUIRE(r.per_second.size() >= 2);
    std::uint64_t sum = 0;
    for (const auto& s : r.per_second) sum += s.completed;
    CHECK(sum == r.completed);
    CHECK(r.slow_seconds == 0);
    CHECK(r.cpu.threads_s > 0);
    CHECK(r.requests_per_s() > 0);
}

TEST_CASE("load keep-alive off: one connection per request") {
    REQUIRE_NGINX();
    EACH_ENGINE();
    Nginx nginx;
    LoadSpec spec = spec_for({nginx.url("/")}, 1, 2);
    spec.keepalive = false;
    spec.max_requests = 50;
    const LoadResult r = run_load(spec);
    CHECK(r.completed == 50);
    CHECK(r.connections_opened == 50);
    const auto log = nginx.log();
    std::set<std::string> conns;
    for (const auto& e : log) conns.insert(e.connection);
    CHECK(log.size() == 50);
    CHECK(conns.size() == 50);
}

TEST_CASE("load identity: X-Forwarded-For per link and bound source addresses") {
    REQUIRE_NGINX();
    EACH_ENGINE();
    Nginx nginx;
    LoadSpec spec = spec_for({nginx.url("/id?k=0"), nginx.url("/id?k=1"), nginx.url("/id?k=2")}, 1, 2);
    spec.max_requests = 30;
    spec.identity.xff_pattern = std::string(kDefaultXffPattern);
    spec.identity.bind_prefix = "127.0";
    const LoadResult r = run_load(spec);
    CHECK(r.completed == 30);
    CHECK(r.errors == 0);
    const auto log = nginx.log();
    REQUIRE(log.size() == 30);
    for (const auto& e : log) {
        INFO(e.uri << " from " << e.remote << " xff " << e.xff);
        const int k = e.uri.back() - '0';
        CHECK(e.xff == "10.0." + std::to_string(k) + ".7");
        CHECK(e.remote == "127.0.1." + std::to_string(k + 1));
    }
}

TEST_CASE("load open model: a fixed rate is met and every tick is accounted for") {
    REQUIRE_NGINX();
    EACH_ENGINE();
    Nginx nginx;
    LoadSpec spec = spec_for({nginx.url("/")}, 2, 8);
    spec.model = Model::open;
    spec.rate = 400;
    spec.duration = 1s;
    const LoadResult r = run_load(spec);
    CHECK(r.offered >= 398);
    CHECK(r.offered <= 401);
    CHECK(r.sent + r.unsent == r.offered);
    // Unsent ticks were still queued when the window closed: all eight
    // connections busy, i.e. the shared machine stalled nginx for > 20 ms at
    // the end. One such tick in 400 is that noise; more than 1% is lost pace.
    CHECK(r.unsent <= r.offered / 100);
    CHECK(r.completed == r.sent);
    CHECK(r.sent_per_s() == doctest::Approx(400).epsilon(0.05));
    // On time at the median even on a busy shared machine (late counts > 1 ms).
    CHECK(r.send_lag.value_at_percentile(50) < 20'000);
    CHECK(hist(r.latency, "2xx").count() == r.completed);
    CHECK(hist(r.service, "2xx").count() == r.completed);
    CHECK(r.send_lag.count() == r.sent);
    CHECK(r.to_json().at("model") == "open");
}

TEST_CASE("load warm-up: every link once, reported apart") {
    REQUIRE_NGINX();
    EACH_ENGINE();
    Nginx nginx;
    LoadSpec spec = spec_for({nginx.url("/"), nginx.url("/429"), nginx.url("/")}, 1, 1);
    spec.warmup_once = true;
    spec.max_requests = 6;
    const LoadResult r = run_load(spec);
    REQUIRE(r.has_warmup);
    CHECK(r.warmup.requests == 3);
    CHECK(r.warmup.status_counts == std::map<int, std::uint64_t>{{200, 2}, {429, 1}});
    CHECK(r.completed == 6);
    const auto j = r.to_json();
    CHECK(j.at("warmup").at("status_counts").at("429") == 1);
    const auto log = nginx.log();
    REQUIRE(log.size() == 9);
    CHECK(log[0].uri == "/");
    CHECK(log[1].uri == "/429");
    CHECK(log[2].uri == "/");
}

TEST_CASE("load stop flag: the window closes early and the result says so") {
    REQUIRE_NGINX();
    EACH_ENGINE();
    Nginx nginx;
    std::atomic<bool> stop{false};
    LoadSpec spec = spec_for({nginx.url("/")}, 1, 2);
    spec.duration = 30s;
    std::thread stopper([&] {
        std::this_thread::sleep_for(300ms);
        stop = true;
    });
    int progress = 0;
    LoadHooks hooks;
    hooks.stop = &stop;
    hooks.on_progress = [&](const LoadProgress&) { ++progress; };
    const LoadResult r = run_load(spec, hooks);
    stopper.join();
    CHECK(r.interrupted);
    CHECK(r.window_s < 1.0);
    CHECK(r.completed > 0);
}

TEST_CASE("load CLI: help, refusal and JSON") {
    using stand::cli::run_load;
    std::ostringstream captured;
    auto* old = std::cout.rdbuf(captured.rdbuf());
    CHECK(run_load({"--help"}) == 0);
    std::cout.rdbuf(old);
    for (const char* flag : {"--threads", "--connections", "--duration", "--rate", "--keepalive", "--xff",
                             "--bind-prefix", "--header", "--ua", "--timeout", "--warmup-once", "--json",
                             "--insecure", "--tls-resume", "--allow-remote", "--urls"})
        CHECK(captured.str().find(flag) != std::string::npos);

    std::string refusal;
    try {
        run_load({"http://192.0.2.7:8080/panel", "-d", "1s"});
    } catch (const stand::cli::UsageError& e) {
        refusal = e.what();
    }
    CHECK(refusal.find("'http://192.0.2.7:8080/panel'") != std::string::npos);
    CHECK_THROWS_AS(run_load({"http://127.0.0.1:1/", "-t", "4", "-c", "2"}), stand::cli::UsageError);
    CHECK_THROWS_AS(run_load({"http://127.0.0.1:1/", "--keepalive", "maybe"}), stand::cli::UsageError);
    CHECK_THROWS_AS(run_load({"http://127.0.0.1:1/", "--xff", "{k"}), stand::cli::UsageError);
    CHECK_THROWS_AS(run_load({"http://127.0.0.1:1/", "-d", "soon"}), stand::cli::UsageError);
    CHECK_THROWS_AS(run_load({}), stand::cli::UsageError);

    if (!Nginx::available()) return;
    Nginx nginx;
    std::ostringstream out;
    old = std::cout.rdbuf(out.rdbuf());
    const int code = run_load({nginx.url("/"), "-t1", "-c", "2", "--requests", "20", "--json", "-H", "X-Test: 1",
                               "--xff", "default"});
    std::cout.rdbuf(old);
    CHECK(code == 0);
    const auto j = boost::json::parse(out.str()).as_object();
    CHECK(j.at("requests").at("completed") == 20);
    CHECK(j.at("xff_pattern") == "10.{k>>8&255}.{k&255}.7");
    CHECK(j.at("generator_saturated").is_bool());
}
