// many_clients: a Hysteria 2 tunnel per client, client i with created user
// i's link (each fetched from its subscription before the window) or with
// the given "server", connecting over the ramp. No Hysteria 2 server runs
// in-process (the QUIC code is a client only; the server is
// tests/hysteria2-server, a Go program), so the links here name a loopback
// UDP port nothing listens on: every handshake is refused, which the step
// records (a finding) without failing. Tested: whose links are fetched, in
// what order, the refusals before the clients, the record of a run whose
// clients all failed, the metrics of a result. The success path runs on the
// real server in scenario.tunnel_steps, scenario.one_server_doubles and
// scenario.one_server_3x_ui_double (and real.3x-ui.one_server).
#include "scenario/steps/tunnel_support.hpp"
#include "step_samples.hpp"
#include "tunnel_fixtures.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

using namespace stand::test;
namespace json = boost::json;

namespace {


const std::string kClients = R"({"step": "create_users", "name": "cu", "count": 3},
    {"step": "many_clients", "name": "M", "clients": 3, "duration_s": 0.4, "ramp_s": 0.2, "every_s": 0.1,
     "sink": "127.0.0.1:9")";

}  // namespace

// Runs through: clients that cannot connect are the record's finding, not a failure.
STAND_STEP_SAMPLE({"many_clients",
                   R"({"step": "create_users", "count": 2},
                      {"step": "many_clients", "clients": 2, "duration_s": 0.4, "ramp_s": 0.1, "every_s": 0.1,
                       "sink": "127.0.0.1:9"})",
                   "", [](StepBench& b) { serve_users(b); }});

TEST_CASE("many_clients step: every user's link fetched in order, one client each, failed handshakes are a finding") {
    StepBench b(kClients + "}");
    const auto subs = serve_users(b);
    CHECK(b.failure_of_all() == "");
    CHECK(subs->targets() == std::vector<std::string>{"/sub/user1", "/sub/user2", "/sub/user3"});
    // No plugin call but create_users' own.
    CHECK(b.port.calls().size() == b.port.count(PortCall::create_user) + b.port.count(PortCall::http_calls));
    CHECK(b.metric("M.links_s") >= 0);
    CHECK(b.metric("M.links_s") < 1);
    CHECK(b.metric("M.connected") == 0);
    CHECK(b.metric("M.handshake_failures") == 3);
    CHECK(b.metric("M.requests_ok") == 0);
    CHECK(b.metric("M.request_failures") == 0);
    CHECK(b.metric("M.disconnects") == 0);
    CHECK_FALSE(b.metric("M.handshake_p50_ms"));
    CHECK_FALSE(b.metric("M.request_p95_ms"));
    const auto& load = b.load_of("M");
    CHECK(load.at("schema").as_string() == "stand.many_clients/1");
    CHECK(load.at("clients").to_number<int>() == 3);
    CHECK(load.at("errors").as_array().at(0).as_string() == refused(subs->udp));
    CHECK(load.at("elapsed_s").to_number<double>() >= 0.2);
    CHECK(b.finding_ids() == std::vector<std::string>{"tunnel-clients-failed"});
    CHECK(b.finding_message(0) == "3 of 3 clients failed to connect; first: " + refused(subs->udp));
    REQUIRE(b.ctx.record.steps.size() == 2);
    CHECK(b.ctx.record.steps[1].at("name").as_string() == "M");
}

TEST_CASE("many_clients step: a given \"server\" serves every client, with no user and no plugin call") {
    const auto udp = closed_udp_port();
    StepBench b(R"({"step": "many_clients", "name": "M", "clients": 4, "duration_s": 0.3, "ramp_s": 0.1,
                    "sink": "127.0.0.1:9", "server": "hysteria2://s3cret@127.0.0.1:)" + std::to_string(udp) + R"(/"})");
    CHECK(b.failure_of_all() == "");
    CHECK(b.port.calls().empty());
    CHECK(b.load_of("M").at("clients").to_number<int>() == 4);
    CHECK(b.metric("M.handshake_failures") == 4);
    CHECK(b.metric("M.links_s") < 1);
    CHECK(b.finding_message(0) == "4 of 4 clients failed to connect; first: " + refused(udp));
}

TEST_CASE("many_clients step: what ends it before the clients, naming the step and the user") {
    SUBCASE("fewer users than clients when it runs") {
        StepBench b(kClients + "}");
        serve_users(b);
        b.run(0);
        b.ctx.state.users.pop_back();
        CHECK(b.failure_of(1) == "step M wants users 0..2, each with a tunnel of its own, but 2 users exist");
        CHECK(b.ctx.record.loads.empty());
    }
    SUBCASE("the second user's subscription answers 500: the third is not fetched") {
        StepBench b(kClients + "}");
        const auto subs = serve_users(b);
        subs->answer_with([raw = subs.get()](const std::string& user) {
            return user == "user2" ? reply(500, "") : reply(200, raw->link_of(user));
        });
        CHECK(b.failure_of_all() == "step M: subscription of user 1 (id-user2) (" + subs->http.url("/sub/user2") +
                                        ") answered 500");
        CHECK(subs->targets() == std::vector<std::string>{"/sub/user1", "/sub/user2"});
        CHECK_FALSE(b.metric("M.links_s"));
        CHECK(b.ctx.record.loads.empty());
    }
    SUBCASE("no sink and no backend: after the links") {
        StepBench b(R"({"step": "create_users", "count": 1}, {"step": "many_clients", "name": "M", "clients": 1,
                        "duration_s": 0.3, "ramp_s": 0.1})");
        serve_users(b);
        CHECK(b.failure_of_all() ==
              "step M needs a sink: give \"sink\" or a top-level \"backend\" (its /zero and /small)");
        CHECK(b.metric("M.links_s") >= 0);
        CHECK(b.ctx.record.loads.empty());
    }
}

TEST_CASE("many_clients step: a user with no Hysteria 2 link fails it, or with skip leaves it unmeasured") {
    const auto vless_for_user2 = [](Subscriptions& subs) {
        subs.answer_with([raw = &subs](const std::string& user) {
            return reply(200, user == "user2" ? "vless://id@127.0.0.1:443?security=none#v\n" : raw->link_of(user));
        });
    };
    SUBCASE("fail") {
        StepBench b(kClients + "}");
        const auto subs = serve_users(b);
        vless_for_user2(*subs);
        CHECK(b.failure_of_all() == "step M: subscription of user 1 (id-user2) (" + subs->http.url("/sub/user2") +
                                        ") has no hysteria2:// link (1 link(s))");
        CHECK(b.finding_ids().empty());
    }
    SUBCASE("skip") {
        StepBench b(kClients + R"(, "if_elsewhere": "skip"})");
        const auto subs = serve_users(b);
        vless_for_user2(*subs);
        CHECK(b.failure_of_all() == "");
        const std::string why = "subscription of user 1 (id-user2) (" + subs->http.url("/sub/user2") +
                                ") has no hysteria2:// link (1 link(s)): not measured (\"if_elsewhere\": \"skip\")";
        CHECK(b.load_of("M").at("not_measured").as_string() == why);
        CHECK(b.finding_ids() == std::vector<std::string>{"tunnel-not-here"});
        CHECK(b.finding_message(0) == why);
        CHECK_FALSE(b.metric("M.links_s"));
        CHECK_FALSE(b.metric("M.connected"));
    }
}

TEST_CASE("many_clients step: links naming a server elsewhere fail it saying how, or with skip leave it unmeasured") {
    const auto elsewhere = [](const std::string& user) {
        return reply(200, "hysteria2://auth-" + user + "@node1.bench.test:8443/?insecure=1\n");
    };
    SUBCASE("fail: how to point the step at a server here") {
        StepBench b(kClients + "}");
        serve_users(b)->answer_with(elsewhere);
        const std::string failure = b.failure_of_all();
        CHECK(failure.starts_with("step M: "));
        CHECK(failure.find("node1.bench.test") != std::string::npos);
        CHECK(failure.find(": give the step \"server\": \"hysteria2://AUTH@127.0.0.1:8443/?insecure=1\" (a server "
                           "on this machine, AUTH a user's auth there), or set \"allow_remote\": true") !=
              std::string::npos);
        // The links were all fetched first.
        CHECK(b.metric("M.links_s") >= 0);
        CHECK(b.ctx.record.loads.empty());
    }
    SUBCASE("skip") {
        StepBench b(kClients + R"(, "if_elsewhere": "skip"})");
        serve_users(b)->answer_with(elsewhere);
        CHECK(b.failure_of_all() == "");
        CHECK(b.load_of("M").at("not_measured").as_string() ==
              "the link names node1.bench.test:8443, not a server on this machine (the panel serves its users "
              "elsewhere, or not at all): not measured (\"if_elsewhere\": \"skip\")");
        CHECK(b.finding_ids() == std::vector<std::string>{"tunnel-not-here"});
        CHECK_FALSE(b.metric("M.links_s"));
    }
}

// The users' links are fetched one after another (tunnel_run.cpp,
// user_links): Ctrl-C between two fetches stops the step there, rather than
// after 400 fetches with the clients recorded as a measurement.
TEST_CASE("many_clients step: the run's interrupt while it fetches the links stops it there") {
    StepBench b(kClients + "}");
    const auto subs = serve_users(b);
    subs->answer_with([&b, raw = subs.get()](const std::string& user) {
        if (user == "user1") b.interrupted = true;
        return reply(200, raw->link_of(user));
    });
    CHECK(b.failure_of_all() == "interrupted");
    CHECK(subs->targets() == std::vector<std::string>{"/sub/user1"});
    CHECK(b.ctx.record.loads.empty());
}

TEST_CASE("many_clients step: the metrics of a result") {
    stand::tunnel::ManyClientsResult r;
    r.clients = 20;
    r.connected = 18;
    r.handshake_failures = 2;
    r.requests_ok = 340;
    r.requests_failed = 4;
    r.disconnects = 1;
    r.elapsed_s = 8;
    r.cpu_s = 2;
    for (int i = 0; i < 18; ++i) r.handshake_us.record(i < 17 ? 3000 : 90000);
    for (int i = 0; i < 100; ++i) r.request_us.record(i < 90 ? 1000 : 7000);
    json::object put;
    stand::scenario::put_many_clients_metrics([&put](const std::string& k, double v) { put[k] = v; }, "C", r);
    CHECK(put.at("C.connected").as_double() == 18);
    CHECK(put.at("C.handshake_failures").as_double() == 2);
    CHECK(put.at("C.handshake_p50_ms").as_double() == doctest::Approx(3).epsilon(0.01));
    CHECK(put.at("C.handshake_p95_ms").as_double() == doctest::Approx(90).epsilon(0.01));
    CHECK(put.at("C.requests_ok").as_double() == 340);
    CHECK(put.at("C.request_failures").as_double() == 4);
    CHECK(put.at("C.request_p95_ms").as_double() == doctest::Approx(7).epsilon(0.01));
    CHECK(put.at("C.disconnects").as_double() == 1);
    CHECK(put.at("C.client_cpu_pct").as_double() == 25);
    CHECK(put.size() == 9);
    CHECK(stand::scenario::many_clients_failures(r) ==
          "2 of 20 clients failed to connect, 4 of 344 requests failed, 1 connection lost after authenticating");

    // No handshake, no request, no time: those metrics are left out, not zero.
    json::object bare;
    stand::scenario::put_many_clients_metrics([&bare](const std::string& k, double v) { bare[k] = v; }, "C",
                                              stand::tunnel::ManyClientsResult{});
    for (const char* absent : {"C.handshake_p50_ms", "C.handshake_p95_ms", "C.request_p95_ms", "C.client_cpu_pct"})
        CHECK_FALSE(bare.contains(absent));
    CHECK(bare.size() == 5);
    CHECK(stand::scenario::many_clients_failures(stand::tunnel::ManyClientsResult{}).empty());
}
