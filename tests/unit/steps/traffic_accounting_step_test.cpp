// traffic_accounting: users user..user+users-1 each fetch mib_per_user
// through a Hysteria 2 tunnel of their own (their links fetched from their
// subscriptions first), the panel's count of each (panel.user_traffic) read
// before and then polled until it settles, and compared. No Hysteria 2
// server runs in-process (the QUIC code is a client only; the server is
// tests/hysteria2-server, a Go program), so the links here name a loopback
// UDP port nothing listens on and no download completes. Tested: the links
// and the counts before the transfer (one user_traffic per user, in order,
// after every link), the parsing of user_traffic's answer and its refusals,
// the failures and what the record says. Not reachable without a server:
// the polls until the counts settle and the ratios (poll_until_settled,
// put_ratios, user_rows). The success path runs on the real server library
// in scenario.one_server_3x_ui_double and real.3x-ui.one_server
// (tests/real-panels/check_one_server_real.sh).
#include "step_samples.hpp"
#include "tunnel_fixtures.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

using namespace stand::test;
namespace json = boost::json;

namespace {

// A panel as serve_users' whose user_traffic counts nothing yet.
std::shared_ptr<Subscriptions> serve_users_counting_nothing(StepBench& b) {
    auto subs = serve_users(b);
    b.port.answer(PortCall::user_traffic,
                  json::value(json::object{{"total_bytes", 0}, {"up_bytes", 0}, {"down_bytes", 0}}));
    return subs;
}

std::vector<std::string> counted_ids(const StepBench& b) {
    std::vector<std::string> out;
    for (const auto& args : b.port.args_of(PortCall::user_traffic)) out.emplace_back(args.at("id").as_string());
    return out;
}

// Users user1..user4 and a traffic_accounting step A counting `users` from `user`.
std::string accounting_steps(const std::string& keys) {
    return R"({"step": "create_users", "name": "cu", "count": 4},
              {"step": "traffic_accounting", "name": "A", "mib_per_user": 0.01, "ramp_s": 0.1,
               "transfer_within_s": 1, "settle_within_s": 1, "poll_every_s": 0.2, "sink": "127.0.0.1:9", )" +
           keys + "}";
}

}  // namespace

STAND_STEP_SAMPLE({"traffic_accounting",
                   R"({"step": "create_users", "count": 2},
                      {"step": "traffic_accounting", "users": 2, "mib_per_user": 0.01, "ramp_s": 0.1,
                       "transfer_within_s": 1, "settle_within_s": 1, "poll_every_s": 0.2, "sink": "127.0.0.1:9"})",
                   "", [](StepBench& b) { serve_users_counting_nothing(b); }, "no user's download completed"});

TEST_CASE("traffic_accounting step: the links, then each user's count before the transfer: no download, no ratio") {
    StepBench b(accounting_steps(R"("user": 1, "users": 2)"));
    const auto subs = serve_users_counting_nothing(b);
    std::vector<std::string> fetched_by_then;
    b.port.before_call = [&](std::size_t, PortCall call) {
        if (call == PortCall::user_traffic && fetched_by_then.empty()) fetched_by_then = subs->targets();
    };
    CHECK(b.failure_of_all() == "step A: no user's download completed; first: " + refused(subs->udp));
    // Every link first, then one count per user, in order, and no poll after a transfer that moved nothing.
    CHECK(fetched_by_then == std::vector<std::string>{"/sub/user2", "/sub/user3"});
    CHECK(subs->targets().size() == 2);
    CHECK(counted_ids(b) == std::vector<std::string>{"id-user2", "id-user3"});
    CHECK(b.port.count(PortCall::delete_user) + b.port.count(PortCall::set_user_enabled) == 0);
    CHECK(b.metric("A.links_s") >= 0);
    CHECK(b.metric("A.links_s") < 1);
    CHECK(b.metric("A.transfer_failures") == 2);
    CHECK(b.metric("A.transfer_s") > 0);
    CHECK(b.metric("A.transfer_s") < 1);  // every client done, before transfer_within_s
    for (const char* absent : {"A.ratio", "A.panel_mib", "A.stand_mib", "A.settled", "A.poll_ms", "A.users_off"})
        CHECK_FALSE(b.metric(absent));
    CHECK(b.ctx.record.loads.empty());
    CHECK(b.finding_ids().empty());
}

TEST_CASE("traffic_accounting step: user_traffic's answer: counts of bytes, total_bytes required, up and down not") {
    const auto failure_with = [](json::value answer, std::size_t* counted = nullptr) {
        StepBench b(accounting_steps(R"("users": 2)"));
        serve_users_counting_nothing(b);
        b.port.answer(PortCall::user_traffic, std::move(answer));
        std::string failure = b.failure_of_all();
        if (counted != nullptr) *counted = b.port.count(PortCall::user_traffic);
        return failure;
    };
    const std::string sdk = " (the SDK's panel.h states the answer)";
    CHECK(failure_with(json::array{}) == "step A: panel.user_traffic(id-user1) answered []: not a JSON object" + sdk);
    CHECK(failure_with(json::object{{"up_bytes", 1}, {"down_bytes", 2}}) ==
          R"(step A: panel.user_traffic(id-user1) answered {"up_bytes":1,"down_bytes":2}: no total_bytes)" + sdk);
    CHECK(failure_with(json::object{{"total_bytes", -1}}) ==
          R"(step A: panel.user_traffic(id-user1) answered {"total_bytes":-1}: total_bytes is not a count of bytes)" +
              sdk);
    CHECK(failure_with(json::object{{"total_bytes", 1.5}}).find("total_bytes is not a count of bytes") !=
          std::string::npos);
    CHECK(failure_with(json::object{{"total_bytes", "1024"}}).find("total_bytes is not a count of bytes") !=
          std::string::npos);
    CHECK(failure_with(json::object{{"total_bytes", 10}, {"up_bytes", -2}}).ends_with(
        ": up_bytes is not a count of bytes" + sdk));
    // null is not "absent": a panel that has no direction leaves the key out.
    CHECK(failure_with(json::object{{"total_bytes", 10}, {"down_bytes", nullptr}}).ends_with(
        ": down_bytes is not a count of bytes" + sdk));
    // Accepted, the transfer runs (and fails with no server): total alone, an int64, a uint64 past int64's range.
    std::size_t counted = 0;
    const std::string no_download = "step A: no user's download completed";
    CHECK(failure_with(json::object{{"total_bytes", 10}}, &counted).starts_with(no_download));
    CHECK(counted == 2);
    const json::object huge{{"total_bytes", std::uint64_t{1} << 63}, {"up_bytes", 0}, {"down_bytes", 7}};
    CHECK(failure_with(huge, &counted).starts_with(no_download));
    CHECK(counted == 2);
}

TEST_CASE("traffic_accounting step: a refused count ends it before the transfer, at the user it names") {
    SUBCASE("the second user's answer is not a count") {
        StepBench b(accounting_steps(R"("users": 2)"));
        serve_users_counting_nothing(b);
        b.port.answer(PortCall::user_traffic, [](const json::object& args) {
            return reply_ok(args.at("id") == "id-user2" ? json::value(json::object{{"total", 5}})
                                                        : json::value(json::object{{"total_bytes", 5}}));
        });
        CHECK(b.failure_of_all() == R"(step A: panel.user_traffic(id-user2) answered {"total":5}: no total_bytes)"
                                    " (the SDK's panel.h states the answer)");
        CHECK(counted_ids(b) == std::vector<std::string>{"id-user1", "id-user2"});
        CHECK_FALSE(b.metric("A.transfer_s"));
    }
    SUBCASE("the panel fails the call") {
        StepBench b(accounting_steps(R"("users": 2)"));
        serve_users_counting_nothing(b);
        b.port.answer(PortCall::user_traffic,
                      [](const json::object&) { return reply_error(STAND_E_NOT_FOUND, "no client id-user1"); });
        CHECK(b.failure_of_all() == "step A: panel.user_traffic(id-user1): no client id-user1");
        CHECK(b.port.count(PortCall::user_traffic) == 1);
        CHECK_FALSE(b.metric("A.transfer_s"));
    }
    SUBCASE("the panel has no user_traffic (ABI before 1.3)") {
        StepBench b(accounting_steps(R"("users": 1)"));
        serve_users_counting_nothing(b);
        b.port.answer(PortCall::user_traffic, [](const json::object&) { return reply_error(STAND_E_UNSUPPORTED, ""); });
        CHECK(b.failure_of_all() == "step A: panel.user_traffic(id-user1): unsupported");
    }
}

TEST_CASE("traffic_accounting step: what ends it before any count, naming the step and the user") {
    SUBCASE("fewer users than it counts") {
        StepBench b(accounting_steps(R"("user": 2, "users": 2)"));
        serve_users_counting_nothing(b);
        b.run(0);
        b.ctx.state.users.pop_back();
        CHECK(b.failure_of(1) == "step A wants users 2..3, each with a tunnel of its own, but 3 users exist");
        CHECK(b.port.count(PortCall::user_traffic) == 0);
    }
    SUBCASE("a subscription answers 500") {
        StepBench b(accounting_steps(R"("users": 2)"));
        const auto subs = serve_users_counting_nothing(b);
        subs->answer_with([](const std::string&) { return reply(500, ""); });
        CHECK(b.failure_of_all() == "step A: subscription of user 0 (id-user1) (" + subs->http.url("/sub/user1") +
                                        ") answered 500");
        CHECK(b.port.count(PortCall::user_traffic) == 0);
        CHECK_FALSE(b.metric("A.links_s"));
    }
    SUBCASE("a subscription holds no Hysteria 2 link") {
        StepBench b(accounting_steps(R"("users": 1)"));
        const auto subs = serve_users_counting_nothing(b);
        subs->answer_with([](const std::string&) { return reply(200, "vless://id@127.0.0.1:443?security=none#v\n"); });
        CHECK(b.failure_of_all() == "step A: subscription of user 0 (id-user1) (" + subs->http.url("/sub/user1") +
                                        ") has no hysteria2:// link (1 link(s))");
        CHECK(b.port.count(PortCall::user_traffic) == 0);
    }
}

TEST_CASE("traffic_accounting step: no sink, or a server elsewhere, ends it after the counts before the transfer") {
    SUBCASE("no sink and no backend") {
        StepBench b(R"({"step": "create_users", "count": 1}, {"step": "traffic_accounting", "name": "A"})");
        serve_users_counting_nothing(b);
        CHECK(b.failure_of_all() ==
              "step A needs a sink: give \"sink\" or a top-level \"backend\" (its /zero and /small)");
        CHECK(b.port.count(PortCall::user_traffic) == 1);
        CHECK_FALSE(b.metric("A.transfer_s"));
    }
    SUBCASE("a link naming a server elsewhere") {
        StepBench b(accounting_steps(R"("users": 2)"));
        serve_users_counting_nothing(b)->answer_with(
            [](const std::string& user) { return reply(200, "hysteria2://" + user + "@node1.bench.test:8443/\n"); });
        const std::string failure = b.failure_of_all();
        CHECK(failure.starts_with("step A: "));
        CHECK(failure.find("'node1.bench.test' is a name other than localhost, which is not looked up") !=
              std::string::npos);
        CHECK(failure.find("set \"allow_remote\": true in the scenario file") != std::string::npos);
        // The step tunnels with the users' own links: no "server" key to offer.
        CHECK(failure.find("\"server\"") == std::string::npos);
        CHECK(b.port.count(PortCall::user_traffic) == 2);
        CHECK_FALSE(b.metric("A.transfer_s"));
    }
}

TEST_CASE("traffic_accounting step: with if_elsewhere skip, nothing is counted and it is recorded as not measured") {
    SUBCASE("a link naming a server elsewhere") {
        StepBench b(accounting_steps(R"("users": 3, "if_elsewhere": "skip")"));
        serve_users_counting_nothing(b)->answer_with(
            [](const std::string&) { return reply(200, "hysteria2://auth@node1.bench.test:8443/?insecure=1\n"); });
        CHECK(b.failure_of_all() == "");
        CHECK(b.load_of("A").at("not_measured").as_string() ==
              "the link names node1.bench.test:8443, not a server on this machine (the panel serves its users "
              "elsewhere, or not at all): not measured (\"if_elsewhere\": \"skip\")");
        CHECK(b.finding_ids() == std::vector<std::string>{"tunnel-not-here"});
        CHECK(b.port.count(PortCall::user_traffic) == 0);
        CHECK_FALSE(b.metric("A.links_s"));
    }
    SUBCASE("the last user's subscription holds no Hysteria 2 link") {
        StepBench b(accounting_steps(R"("users": 3, "if_elsewhere": "skip")"));
        const auto subs = serve_users_counting_nothing(b);
        subs->answer_with([raw = subs.get()](const std::string& user) {
            return reply(200, user == "user3" ? "#profile-title: x\n" : raw->link_of(user));
        });
        CHECK(b.failure_of_all() == "");
        CHECK(b.load_of("A").at("not_measured").as_string() ==
              "subscription of user 2 (id-user3) (" + subs->http.url("/sub/user3") +
                  ") has no hysteria2:// link (0 link(s)): not measured (\"if_elsewhere\": \"skip\")");
        CHECK(b.port.count(PortCall::user_traffic) == 0);
    }
}
