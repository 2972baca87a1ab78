// tunnel_throughput: one Hysteria 2 tunnel to the server of a created user's
// link (its subscription, fetched over HTTP) or of the given "server", with a
// step alongside it. No Hysteria 2 server runs in-process (the QUIC code is a
// client only; the server is tests/hysteria2-server, a Go program), so here
// the links name a loopback UDP port nothing listens on: the tunnel runs its
// window and the step fails with no byte through it. What is tested is all
// around that: whose link is fetched and how, the refusals before the tunnel,
// the record of the failed tunnel, the step alongside, the live status and
// the metrics of a result. The success path runs on the real server in
// scenario.tunnel_steps, scenario.one_server_doubles,
// scenario.one_server_3x_ui_double (and real.3x-ui.one_server),
// scenario.gomaxprocs_go_server_in_quota_box and
// scenario.probe_aliasing_throttled_box.
#include "scenario/steps/tunnel_support.hpp"
#include "step_samples.hpp"
#include "tunnel_fixtures.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

using namespace stand::test;
namespace json = boost::json;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}


}  // namespace

STAND_STEP_SAMPLE({"tunnel_throughput",
                   R"({"step": "create_users", "count": 1},
                      {"step": "tunnel_throughput", "duration_s": 0.3, "sink": "127.0.0.1:9"})",
                   "", [](StepBench& b) { serve_users(b); }, "no byte came through the tunnel"});

TEST_CASE("tunnel_throughput step: user 0's link from its subscription, no byte through the tunnel fails it") {
    StepBench b(R"({"step": "create_users", "name": "cu", "count": 1},
                   {"step": "tunnel_throughput", "name": "T", "duration_s": 0.3, "streams": 2, "cc": "cubic",
                    "probe_interval_ms": 50, "sink": "127.0.0.1:9"})");
    const auto subs = serve_users(b);
    CHECK(b.failure_of_all() == "step T: no byte came through the tunnel (the first connection failed: " +
                                    refused(subs->udp) + ")");
    CHECK(subs->targets() == std::vector<std::string>{"/sub/user1"});
    // Only create_users called the plugin: the tunnel's link is the user's own.
    CHECK(b.port.calls().size() == 3);
    CHECK(b.port.count(PortCall::create_user) == 1);
    const auto& load = b.load_of("T");
    CHECK(load.at("schema").as_string() == "stand.tunnel/1");
    CHECK(load.at("server").as_string() == "127.0.0.1:" + std::to_string(subs->udp));
    CHECK(load.at("sink").as_string() == "127.0.0.1:9");
    CHECK(load.at("streams").to_number<int>() == 2);
    CHECK(load.at("congestion_control").as_string() == "cubic");
    CHECK(load.at("probe_interval_ms").to_number<double>() == 50);
    CHECK(load.at("bytes").to_number<int>() == 0);
    CHECK(load.at("window_s").to_number<double>() >= 0.29);
    CHECK(load.at("loss_reasons").as_array().at(0).as_string() == refused(subs->udp));
    CHECK(b.metric("T.gbit_s") == 0);
    CHECK(b.metric("T.mbit_mean") == 0);
    CHECK(b.metric("T.streams_dropped") == 0);
    // A refused handshake is no lost connection: the tunnel was never up.
    CHECK(b.metric("T.connection_losses") == 0);
    CHECK(b.metric("T.reconnects") == 0);
    CHECK(b.metric("T.probes_failed") >= 3);
    CHECK_FALSE(b.metric("T.probe_p50_ms"));
    CHECK(b.finding_ids().empty());
    // The failed step is not among the steps that ran.
    REQUIRE(b.ctx.record.steps.size() == 1);
    CHECK(b.ctx.record.steps[0].at("name").as_string() == "cu");
}

TEST_CASE("tunnel_throughput step: \"user\" picks whose link, fetched with the method and headers the panel gave") {
    StepBench b(R"({"step": "create_users", "count": 3},
                   {"step": "tunnel_throughput", "name": "T", "user": 2, "duration_s": 0.2, "sink": "127.0.0.1:9"})");
    const auto subs = serve_users(b, {{"method", "POST"}, {"headers", {{"X-Sub-Token", "t0k3n"}}}});
    CHECK(b.failure_of_all().starts_with("step T: no byte came through the tunnel"));
    const auto requests = subs->http.requests();
    REQUIRE(requests.size() == 1);
    CHECK(requests[0].target() == "/sub/user3");
    CHECK(requests[0].method() == boost::beast::http::verb::post);
    CHECK(requests[0]["X-Sub-Token"] == "t0k3n");
}

TEST_CASE("tunnel_throughput step: a given \"server\" needs no user, no subscription and no plugin call") {
    const auto udp = closed_udp_port();
    StepBench b(R"({"step": "tunnel_throughput", "name": "T", "duration_s": 0.2, "sink": "127.0.0.1:9",
                    "server": "hysteria2://secret@127.0.0.1:)" + std::to_string(udp) + R"(/?insecure=1"})");
    CHECK(b.failure_of_all() == "step T: no byte came through the tunnel (the first connection failed: " +
                                    refused(udp) + ")");
    CHECK(b.port.calls().empty());
    CHECK(b.load_of("T").at("server").as_string() == "127.0.0.1:" + std::to_string(udp));
}

TEST_CASE("tunnel_throughput step: what ends it before a tunnel, naming the step and the user") {
    const std::string steps = R"({"step": "create_users", "count": 1},
                                 {"step": "tunnel_throughput", "name": "T", "duration_s": 0.2, "sink": "127.0.0.1:9"})";
    SUBCASE("no user exists when it runs") {
        StepBench b(steps);
        CHECK(b.failure_of(1) == "step T wants users 0..0, each with a tunnel of its own, but 0 users exist");
        CHECK(b.ctx.record.loads.empty());
    }
    SUBCASE("the subscription answers 500") {
        StepBench b(steps);
        const auto subs = serve_users(b);
        subs->answer_with([](const std::string&) { return reply(500, "oops"); });
        CHECK(b.failure_of_all() == "step T: subscription of user 0 (id-user1) (" + subs->http.url("/sub/user1") +
                                        ") answered 500");
        CHECK(b.ctx.record.loads.empty());
    }
    SUBCASE("the subscription holds no hysteria2:// link") {
        StepBench b(steps);
        const auto subs = serve_users(b);
        subs->answer_with([](const std::string&) { return reply(200, "vless://id@127.0.0.1:443?security=none#v\n"); });
        CHECK(b.failure_of_all() == "step T: subscription of user 0 (id-user1) (" + subs->http.url("/sub/user1") +
                                        ") has no hysteria2:// link (1 link(s))");
    }
    SUBCASE("the subscription's hysteria2:// link is malformed") {
        StepBench b(steps);
        const auto subs = serve_users(b);
        subs->answer_with([](const std::string&) { return reply(200, "hysteria2://auth@127.0.0.1:99999/\n"); });
        CHECK(b.failure_of_all() == "step T: subscription of user 0 (id-user1) (" + subs->http.url("/sub/user1") +
                                        "): port '99999' is not in 1..65535");
    }
    SUBCASE("nothing answers at the subscription's URL") {
        StepBench b(steps);
        std::string url, port;
        {
            Subscriptions gone;
            url = gone.http.url("/sub/user1");
            port = std::to_string(gone.http.port());
        }
        const json::object user{{"id", "id-user1"}, {"subscription", {{"method", "GET"}, {"url", url}}}};
        b.port.answer(PortCall::create_user, json::value(user));
        CHECK(b.failure_of_all() == "step T: subscription of user 0 (id-user1) (" + url +
                                        "): cannot connect to 127.0.0.1:" + port + ": Connection refused");
        CHECK(b.ctx.record.loads.empty());
    }
    SUBCASE("no sink and no backend") {
        StepBench b(R"({"step": "create_users", "count": 1},
                       {"step": "tunnel_throughput", "name": "T", "duration_s": 0.2})");
        serve_users(b);
        CHECK(b.failure_of_all() ==
              "step T needs a sink: give \"sink\" or a top-level \"backend\" (its /zero and /small)");
        CHECK(b.ctx.record.loads.empty());
    }
}

TEST_CASE("tunnel_throughput step: a link naming a server elsewhere fails saying how to point it at one here") {
    const auto elsewhere = [](const std::string&) {
        return reply(200, "hysteria2://auth@node1.bench.test:8443/?insecure=1\n");
    };
    const std::string how =
        " (a server on this machine, AUTH a user's auth there), or set \"allow_remote\": true in the scenario file to "
        "look the name up and send load beyond this machine";
    SUBCASE("the step's key") {
        StepBench b(R"({"step": "create_users", "count": 1},
                       {"step": "tunnel_throughput", "name": "T", "duration_s": 0.2, "sink": "127.0.0.1:9"})");
        serve_users(b)->answer_with(elsewhere);
        const std::string failure = b.failure_of_all();
        CHECK(failure.starts_with("step T: "));
        CHECK(failure.find("node1.bench.test") != std::string::npos);
        CHECK(failure.ends_with(": give the step \"server\": \"hysteria2://AUTH@127.0.0.1:8443/?insecure=1\"" + how));
        CHECK(b.ctx.record.loads.empty());
    }
    SUBCASE("the --param that sets it") {
        StepBench b(R"({"step": "create_users", "count": 1},
                       {"step": "tunnel_throughput", "name": "T", "duration_s": 0.2, "sink": "127.0.0.1:9",
                        "server": "${tunnel_server}"})",
                    R"("params": {"tunnel_server": ""}, )");
        serve_users(b)->answer_with(elsewhere);
        CHECK(b.failure_of_all().ends_with(
            ": give --param 'tunnel_server=hysteria2://AUTH@127.0.0.1:8443/?insecure=1'" + how));
    }
}

TEST_CASE("tunnel_throughput step: with if_elsewhere skip it is recorded as not measured, its during step still run") {
    const std::string steps = R"({"step": "create_users", "count": 1},
        {"step": "tunnel_throughput", "name": "T", "duration_s": 0.3, "sink": "127.0.0.1:9", "if_elsewhere": "skip",
         "during": {"step": "sleep", "name": "D", "duration_s": 0.05}, "during_after_s": 0.1})";
    SUBCASE("a link naming a server elsewhere") {
        StepBench b(steps);
        serve_users(b)->answer_with(
            [](const std::string&) { return reply(200, "hysteria2://auth@node1.bench.test:8443/?insecure=1\n"); });
        const auto t0 = std::chrono::steady_clock::now();
        CHECK(b.failure_of_all() == "");
        // The step lasts as planned.
        CHECK(seconds_since(t0) >= 0.3);
        const std::string why = "the link names node1.bench.test:8443, not a server on this machine (the panel serves "
                                "its users elsewhere, or not at all): not measured (\"if_elsewhere\": \"skip\")";
        CHECK(b.load_of("T").at("not_measured").as_string() == why);
        CHECK(b.finding_ids() == std::vector<std::string>{"tunnel-not-here"});
        CHECK(b.ctx.record.findings.at(0).at("message").as_string() == why);
        CHECK(b.ctx.record.findings.at(0).at("scope").as_string().ends_with("step T"));
        CHECK_FALSE(b.metric("T.gbit_s"));
        REQUIRE(b.ctx.record.steps.size() == 3);
        CHECK(b.ctx.record.steps[1].at("name").as_string() == "D");
        CHECK(b.ctx.record.steps[2].at("name").as_string() == "T");
    }
    SUBCASE("a subscription with no hysteria2:// link") {
        StepBench b(steps);
        const auto subs = serve_users(b);
        subs->answer_with([](const std::string&) { return reply(200, "trojan://pw@127.0.0.1:443#t\n"); });
        CHECK(b.failure_of_all() == "");
        CHECK(b.load_of("T").at("not_measured").as_string() ==
              "subscription of user 0 (id-user1) (" + subs->http.url("/sub/user1") +
                  ") has no hysteria2:// link (1 link(s)): not measured (\"if_elsewhere\": \"skip\")");
        CHECK(b.finding_ids() == std::vector<std::string>{"tunnel-not-here"});
        CHECK(b.ctx.record.steps.size() == 3);
    }
}

TEST_CASE("tunnel_throughput step: the during step runs during_after_s into the tunnel, the tunnel's failure wins") {
    StepBench b(R"({"step": "create_users", "name": "cu", "count": 1},
                   {"step": "tunnel_throughput", "name": "T", "duration_s": 0.4, "sink": "127.0.0.1:9",
                    "during": {"step": "create_users", "name": "D", "count": 1, "prefix": "d"},
                    "during_after_s": 0.2})");
    const auto subs = serve_users(b);
    std::vector<std::chrono::steady_clock::time_point> creates;
    b.port.before_call = [&creates](std::size_t, PortCall call) {
        if (call == PortCall::create_user) creates.push_back(std::chrono::steady_clock::now());
    };
    CHECK(b.failure_of_all() == "step T: no byte came through the tunnel (the first connection failed: " +
                                    refused(subs->udp) + ")");
    REQUIRE(creates.size() == 2);
    const double after = std::chrono::duration<double>(creates[1] - creates[0]).count();
    CHECK(after >= 0.2);
    CHECK(after < 0.4);  // while the tunnel ran
    // The step alongside is recorded as its own, with its metrics and its user.
    REQUIRE(b.ctx.record.steps.size() == 2);
    CHECK(b.ctx.record.steps[1].at("name").as_string() == "D");
    CHECK(b.metric("D.users") == 1);
    REQUIRE(b.ctx.state.users.size() == 2);
    CHECK(b.ctx.state.users[1].id == "id-d1");
    CHECK(b.metric("T.mbit_mean") == 0);

    // A during step that fails too: the failure reported is the tunnel's, its record kept.
    StepBench both(R"({"step": "create_users", "name": "cu", "count": 1},
                      {"step": "tunnel_throughput", "name": "T", "duration_s": 0.3, "sink": "127.0.0.1:9",
                       "during": {"step": "create_users", "name": "D", "count": 1, "prefix": "d"}})");
    serve_users(both);
    int created = 0;
    both.port.before_call = [&](std::size_t, PortCall call) {
        if (call == PortCall::create_user && created++ == 1)
            both.port.answer(PortCall::create_user,
                             [](const json::object&) { return reply_error(STAND_E_BAD_RESPONSE, "HTTP 500"); });
    };
    CHECK(both.failure_of_all().starts_with("step T: no byte came through the tunnel"));
    CHECK(both.port.count(PortCall::create_user) == 2);
    CHECK(both.ctx.record.steps.size() == 1);  // cu; D failed
    CHECK(both.metric("T.mbit_mean") == 0);
    CHECK(both.ctx.record.loads.contains("T"));
}

TEST_CASE("tunnel_throughput step: its live status once a second, naming the step") {
    StepBench b(R"({"step": "tunnel_throughput", "name": "T", "duration_s": 1.3, "sink": "127.0.0.1:9",
                    "server": "hysteria2://a@127.0.0.1:)" + std::to_string(closed_udp_port()) + R"(/?insecure=1"})");
    std::vector<std::string> lines;
    b.env.on_live = [&lines](const std::string& line) { lines.push_back(line); };
    CHECK(b.failure_of_all().starts_with("step T: no byte came through the tunnel"));
    CHECK(lines == std::vector<std::string>{"T 1 s elapsed, 0 s left, 0 Mbit/s, 0 dropped, 0 reconnects"});
}

TEST_CASE("tunnel_throughput step: the metrics of a tunnel's result") {
    stand::tunnel::TunnelResult r;
    r.mbit_mean = 1500;
    r.seconds_below = 2;
    r.probes_failed = 1;
    r.streams_dropped = 3;
    r.reconnects = 2;
    r.connection_losses = 2;
    r.reconnect_gaps_ms = {120, 480.5, 300};
    r.handshake_ms = 12.5;
    r.window_s = 10;
    r.cpu_s = 2.5;
    for (int i = 0; i < 98; ++i) r.probe_latency.record(2000);  // µs
    r.probe_latency.record(40000);
    r.probe_latency.record(40000);
    json::object put;
    const auto into = [&put](const std::string& k, double v) { put[k] = v; };
    stand::scenario::put_tunnel_metrics(into, "B", r);
    CHECK(put.at("B.gbit_s").as_double() == 1.5);
    CHECK(put.at("B.mbit_mean").as_double() == 1500);
    CHECK(put.at("B.seconds_below").as_double() == 2);
    CHECK(put.at("B.probes_failed").as_double() == 1);
    CHECK(put.at("B.streams_dropped").as_double() == 3);
    CHECK(put.at("B.reconnects").as_double() == 2);
    CHECK(put.at("B.connection_losses").as_double() == 2);
    CHECK(put.at("B.reconnect_gap_max_ms").as_double() == 480.5);
    CHECK(put.at("B.handshake_ms").as_double() == 12.5);
    CHECK(put.at("B.client_cpu_pct").as_double() == 25);
    CHECK(put.at("B.probe_p50_ms").as_double() == doctest::Approx(2).epsilon(0.01));
    CHECK(put.at("B.probe_p95_ms").as_double() == doctest::Approx(2).epsilon(0.01));
    CHECK(put.at("B.probe_p99_ms").as_double() == doctest::Approx(40).epsilon(0.01));
    CHECK(put.size() == 13);

    // No probe answered, no reconnect, no window: those metrics are left out, not zero.
    json::object bare;
    stand::scenario::put_tunnel_metrics([&bare](const std::string& k, double v) { bare[k] = v; }, "B",
                                        stand::tunnel::TunnelResult{});
    for (const char* absent : {"B.probe_p50_ms", "B.probe_p95_ms", "B.probe_p99_ms", "B.reconnect_gap_max_ms",
                               "B.client_cpu_pct"})
        CHECK_FALSE(bare.contains(absent));
    CHECK(bare.at("B.gbit_s").as_double() == 0);
    CHECK(bare.size() == 8);
}

TEST_CASE("tunnel_throughput step: the first Hysteria 2 link of a subscription, in any form a panel serves") {
    StepBench b(R"({"step": "sleep", "duration_s": 1})");
    Subscriptions subs;
    const auto fetch = [&](const std::string& body) {
        subs.answer_with([body](const std::string&) { return reply(200, body); });
        return stand::scenario::hysteria_link_of(b.ctx.http, {{"url", subs.http.url("/sub/u")}}, "user 7 (u7)");
    };
    // Plain text: other schemes and comments before it are passed over.
    auto link = fetch("#profile-title: x\nvless://id@127.0.0.1:443#v\nhysteria2://first@127.0.0.1:4431/?insecure=1\n"
                      "hysteria2://second@127.0.0.1:4432/\n");
    CHECK(link.auth == "first");
    CHECK(link.port == 4431);
    CHECK(link.insecure);
    // Base64 of the lines, as most panels serve it; hy2:// is the short form.
    link = fetch("dHJvamFuOi8vcHdAMTI3LjAuMC4xOjQ0MyN0Cmh5MjovL3NlY3JldEAxMjcuMC4wLjE6ODQ0My8/c25pPWEuZXhhbXBsZQo=");
    CHECK(link.auth == "secret");
    CHECK(link.port == 8443);
    CHECK(link.sni == "a.example");
    // No method given: GET.
    CHECK(subs.http.requests().back().method() == boost::beast::http::verb::get);
    CHECK_THROWS_AS(fetch("trojan://pw@127.0.0.1:443#t\n"), stand::scenario::NoHysteriaLink);
    CHECK_THROWS_WITH(fetch(""), ("subscription of user 7 (u7) (" + subs.http.url("/sub/u") +
                                  ") has no hysteria2:// link (0 link(s))").c_str());
    subs.answer_with([](const std::string&) { return reply(404, "no such user"); });
    CHECK_THROWS_WITH(stand::scenario::hysteria_link_of(b.ctx.http, {{"url", subs.http.url("/sub/u")}}, "user 7 (u7)"),
                      ("subscription of user 7 (u7) (" + subs.http.url("/sub/u") + ") answered 404").c_str());
}
