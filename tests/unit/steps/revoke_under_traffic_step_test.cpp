// revoke_under_traffic: the revoked user's Hysteria 2 tunnel and the other
// users' tunnels (each with its user's link, fetched from its subscription
// before anything is revoked) carry streams; after after_s the panel deletes
// or disables the user (panel.delete_user, panel.set_user_enabled false),
// and stand watches what stops when. No Hysteria 2 server runs in-process
// (the QUIC code is a client only; the server is tests/hysteria2-server, a
// Go program), so the links here name a loopback UDP port nothing listens
// on and the step ends with the revoked tunnel having carried nothing.
// Tested: the refusals before any revocation, the call (when, on whom, its
// failure), and the record of the watch. Not reachable without a server:
// the metrics and findings of a revocation (refused_s, still_flowing, ...)
// and set_user_enabled(true) after a disable. The success path runs on the
// real server library in scenario.one_server_3x_ui_double and
// real.3x-ui.one_server (tests/real-panels/check_one_server_real.sh).
#include "scenario/steps/revoke.hpp"
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


// The parser holds watch_s to 2 s or more (streams still flowing in its last
// second). With no server nothing the watch's length decides is reached, so
// a shorter one keeps the case short; the step still lasts a whole second,
// its tunnels seeing the stop only at their once-a-second tick.
void shorten_watch(StepBench& b, std::size_t step, double seconds) {
    auto* revoke = b.scenario.phases.at(0).steps.at(step).action.get_if<stand::scenario::RevokeStep>();
    REQUIRE(revoke != nullptr);
    revoke->watch = stand::scenario::Seconds(seconds);
}

std::size_t revocations(const StepBench& b) {
    return b.port.count(PortCall::delete_user) + b.port.count(PortCall::set_user_enabled);
}

// Three users and a revoke_under_traffic step R with `keys`.
std::string revoke_steps(const std::string& keys) {
    return R"({"step": "create_users", "name": "cu", "count": 3},
              {"step": "revoke_under_traffic", "name": "R", "streams": 1, "sink": "127.0.0.1:9", )" +
           keys + "}";
}

}  // namespace

STAND_STEP_SAMPLE({"revoke_under_traffic",
                   R"({"step": "create_users", "count": 2},
                      {"step": "revoke_under_traffic", "action": "delete", "after_s": 0.3, "streams": 1,
                       "probe_every_ms": 50, "sink": "127.0.0.1:9"})",
                   "",
                   [](StepBench& b) {
                       serve_users(b);
                       shorten_watch(b, 1, 0.4);
                   },
                   "the revoked user's tunnel carried nothing before the revocation"});

TEST_CASE("revoke_under_traffic step: delete: every link fetched, then after after_s panel.delete_user of that user") {
    StepBench b(revoke_steps(R"("action": "delete", "user": 1, "others": 1, "after_s": 0.2)"));
    const auto subs = serve_users(b);
    std::vector<std::string> fetched_by_then;
    std::chrono::steady_clock::time_point users_created, called;
    b.port.before_call = [&](std::size_t, PortCall call) {
        if (call == PortCall::http_calls) users_created = std::chrono::steady_clock::now();
        if (call != PortCall::delete_user) return;
        called = std::chrono::steady_clock::now();
        fetched_by_then = subs->targets();
    };
    b.port.answer(PortCall::delete_user,
                  [](const json::object&) { return reply_error(STAND_E_BAD_RESPONSE, "HTTP 500 from /api/user"); });
    CHECK(b.failure_of_all() == "step R: panel.delete_user(id-user2): HTTP 500 from /api/user");
    const auto deleted = b.port.args_of(PortCall::delete_user);
    REQUIRE(deleted.size() == 1);
    CHECK(deleted[0] == json::object{{"id", "id-user2"}});
    // The revoked user's link and the other's, fetched before: a deleted user's link is gone.
    CHECK(fetched_by_then == std::vector<std::string>{"/sub/user2", "/sub/user3"});
    CHECK(std::chrono::duration<double>(called - users_created).count() >= 0.2);
    CHECK(b.port.count(PortCall::set_user_enabled) == 0);
    CHECK(b.ctx.record.loads.empty());
    CHECK_FALSE(b.metric("R.call_ms"));
}

TEST_CASE("revoke_under_traffic step: disable: panel.set_user_enabled(false), a refusal names the call and the user") {
    StepBench b(R"({"step": "create_users", "count": 1},
                   {"step": "revoke_under_traffic", "name": "R", "action": "disable", "others": 0, "after_s": 0.1,
                    "sink": "127.0.0.1:9"})");
    serve_users(b);
    b.port.answer(PortCall::set_user_enabled, [](const json::object&) {
        return reply_error(STAND_E_UNSUPPORTED, "the panel has no way to disable a user");
    });
    CHECK(b.failure_of_all() == "step R: panel.set_user_enabled(id-user1): the panel has no way to disable a user");
    // The disable, then the user enabled again for the steps after (the step failed all the same).
    const auto calls = b.port.args_of(PortCall::set_user_enabled);
    REQUIRE(calls.size() == 2);
    CHECK(calls[0] == json::object{{"id", "id-user1"}, {"enabled", false}});
    CHECK(calls[1] == json::object{{"id", "id-user1"}, {"enabled", true}});
    CHECK(b.port.count(PortCall::delete_user) == 0);
}

TEST_CASE("revoke_under_traffic step: the watch after the call, with no server the revoked tunnel carried nothing") {
    StepBench b(revoke_steps(R"("action": "disable", "others": 1, "after_s": 0.2, "probe_every_ms": 50)"));
    shorten_watch(b, 1, 0.4);
    const auto subs = serve_users(b);
    CHECK(b.failure_of_all() ==
          "step R: the revoked user's tunnel carried nothing before the revocation (the first connection failed: " +
              refused(subs->udp) + ")");
    CHECK(b.port.args_of(PortCall::set_user_enabled).at(0) == json::object{{"id", "id-user1"}, {"enabled", false}});
    CHECK(subs->targets() == std::vector<std::string>{"/sub/user1", "/sub/user2"});
    // What the watch saw is recorded; the metrics of a revocation are not: nothing was revoked under traffic.
    const auto& load = b.load_of("R");
    CHECK(load.at("action").as_string() == "disable");
    CHECK(load.at("user").as_string() == "id-user1");
    CHECK(load.at("call_ms").to_number<double>() >= 0);
    CHECK(load.at("call_ms").to_number<double>() < 1000);
    // A new connection with the revoked credential every 50 ms over the 0.4 s watch: never refused by a server.
    CHECK(load.at("refusal_tries").to_number<int>() >= 2);
    CHECK(load.at("last_answer").as_string() == refused(subs->udp));
    const auto& revoked = load.at("revoked").as_object();
    CHECK(revoked.at("server").as_string() == "127.0.0.1:" + std::to_string(subs->udp));
    CHECK(revoked.at("streams").to_number<int>() == 1);
    CHECK(revoked.at("bytes").to_number<int>() == 0);
    CHECK(revoked.at("probe_interval_ms").to_number<double>() == 1000);
    REQUIRE(load.at("others").as_array().size() == 1);
    CHECK(load.at("others").as_array()[0].at("bytes").to_number<int>() == 0);
    CHECK_FALSE(b.metric("R.call_ms"));
    CHECK_FALSE(b.metric("R.refused_s"));
    CHECK(b.finding_ids().empty());
}

TEST_CASE("revoke_under_traffic step: what ends it before anything is revoked, naming the step and the user") {
    SUBCASE("fewer users than it revokes and runs beside") {
        StepBench b(revoke_steps(R"("action": "delete", "user": 1, "others": 1, "after_s": 0.2)"));
        const auto subs = serve_users(b);
        b.run(0);
        b.ctx.state.users.pop_back();
        CHECK(b.failure_of(1) ==
              "step R revokes user 1 beside 1 other(s) after it, but 2 users exist: create more before it");
        CHECK(subs->targets().empty());
        CHECK(revocations(b) == 0);
    }
    SUBCASE("the other user's subscription answers 500") {
        StepBench b(revoke_steps(R"("action": "delete", "user": 1, "others": 1, "after_s": 0.2)"));
        const auto subs = serve_users(b);
        subs->answer_with([raw = subs.get()](const std::string& user) {
            return user == "user3" ? reply(500, "") : reply(200, raw->link_of(user));
        });
        CHECK(b.failure_of_all() == "step R: subscription of user 2 (id-user3) (" + subs->http.url("/sub/user3") +
                                        ") answered 500");
        CHECK(revocations(b) == 0);
    }
    SUBCASE("no sink and no backend") {
        StepBench b(R"({"step": "create_users", "count": 2},
                       {"step": "revoke_under_traffic", "name": "R", "action": "disable"})");
        serve_users(b);
        CHECK(b.failure_of_all() ==
              "step R needs a sink: give \"sink\" or a top-level \"backend\" (its /zero and /small)");
        CHECK(revocations(b) == 0);
    }
    SUBCASE("the revoked user's subscription holds no Hysteria 2 link") {
        StepBench b(revoke_steps(R"("action": "delete", "user": 1, "others": 1, "after_s": 0.2)"));
        const auto subs = serve_users(b);
        subs->answer_with([](const std::string&) { return reply(200, "trojan://pw@127.0.0.1:443#t\n"); });
        CHECK(b.failure_of_all() == "step R: subscription of user 1 (id-user2) (" + subs->http.url("/sub/user2") +
                                        ") has no hysteria2:// link (1 link(s))");
        CHECK(revocations(b) == 0);
    }
}

TEST_CASE("revoke_under_traffic step: with if_elsewhere skip, nobody is revoked and it is recorded as not measured") {
    SUBCASE("a link naming a server elsewhere") {
        StepBench b(revoke_steps(R"("action": "delete", "user": 1, "if_elsewhere": "skip")"));
        serve_users(b)->answer_with(
            [](const std::string&) { return reply(200, "hysteria2://auth@node1.bench.test:8443/?insecure=1\n"); });
        CHECK(b.failure_of_all() == "");
        CHECK(b.load_of("R").at("not_measured").as_string() ==
              "the link names node1.bench.test:8443, not a server on this machine (the panel serves its users "
              "elsewhere, or not at all): not measured (\"if_elsewhere\": \"skip\")");
        CHECK(b.finding_ids() == std::vector<std::string>{"tunnel-not-here"});
        CHECK(revocations(b) == 0);
        CHECK(b.ctx.record.steps.size() == 2);
    }
    SUBCASE("a subscription with no Hysteria 2 link") {
        StepBench b(revoke_steps(R"("action": "disable", "user": 1, "if_elsewhere": "skip")"));
        const auto subs = serve_users(b);
        subs->answer_with([](const std::string&) { return reply(200, "ss://YWVzLTI1Ni1nY206cHc@127.0.0.1:8388#s\n"); });
        CHECK(b.failure_of_all() == "");
        CHECK(b.load_of("R").at("not_measured").as_string() ==
              "subscription of user 1 (id-user2) (" + subs->http.url("/sub/user2") +
                  ") has no hysteria2:// link (1 link(s)): not measured (\"if_elsewhere\": \"skip\")");
        CHECK(revocations(b) == 0);
    }
}

// With a link naming a server elsewhere (and if_elsewhere "fail") the
// tunnels cannot start: the step fails, as a StepFailure, before revoking.
TEST_CASE("revoke_under_traffic step: a link naming a server elsewhere fails it before anything is revoked") {
    StepBench b(revoke_steps(R"("action": "delete", "user": 1, "after_s": 0.05)"));
    serve_users(b)->answer_with(
        [](const std::string&) { return reply(200, "hysteria2://auth@node1.bench.test:8443/?insecure=1\n"); });
    std::string failure;
    CHECK_NOTHROW(failure = b.failure_of_all());
    CHECK(failure.starts_with("step R: "));
    CHECK(failure.find("node1.bench.test") != std::string::npos);
    CHECK(revocations(b) == 0);
}

