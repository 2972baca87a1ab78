// create_users: one panel.create_user per user, each user's id and link left
// for the steps after it, the calls' times and the panel's 429 waits apart.
#include "step_samples.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

using namespace stand::test;
namespace json = boost::json;

namespace {

// A panel that answers every create_user with an id and a link of the name.
void panel_creates_users(StepBench& b) {
    b.port.answer(PortCall::create_user, [](const json::object& args) {
        const std::string name(args.at("name").as_string());
        return reply_ok(json::object{{"id", "id-" + name},
                                     {"subscription", {{"method", "GET"}, {"url", "http://127.0.0.1:1/sub/" + name}}}});
    });
}

}  // namespace

STAND_STEP_SAMPLE({"create_users", R"({"step": "create_users", "count": 3})", "", panel_creates_users});

TEST_CASE("create_users step: users in order for the next steps, with the calls' times") {
    StepBench b(R"({"step": "create_users", "name": "cu", "count": 3, "prefix": "u"})");
    panel_creates_users(b);
    CHECK(b.failure_of_all() == "");
    const auto names = b.port.args_of(PortCall::create_user);
    REQUIRE(names.size() == 3);
    CHECK(names[0].at("name").as_string() == "u1");
    CHECK(names[2].at("name").as_string() == "u3");
    REQUIRE(b.ctx.state.users.size() == 3);
    CHECK(b.ctx.state.users[1].id == "id-u2");
    CHECK(b.ctx.state.users[1].subscription.at("url").as_string() == "http://127.0.0.1:1/sub/u2");
    CHECK(b.metric("cu.users") == 3);
    CHECK(b.metric("cu.call_max_ms") >= b.metric("cu.call_p50_ms"));
    CHECK(b.metric("cu.waits_429") == 0);
    // The HTTP call log is read before and after, for the 429 waits.
    CHECK(b.port.count(PortCall::http_calls) == 2);
}

TEST_CASE("create_users step: the panel's rate-limit waits are taken out of its time") {
    StepBench b(R"({"step": "create_users", "name": "cu", "count": 1})");
    panel_creates_users(b);
    int reads = 0;
    b.port.answer(PortCall::http_calls, [&reads](const json::object&) {
        if (reads++ == 0) return reply_ok(json::array{});
        return reply_ok(json::array{json::object{{"retry_waits", 2}, {"waited_ms", 1500}}});
    });
    CHECK(b.failure_of_all() == "");
    CHECK(b.metric("cu.waits_429") == 2);
    CHECK(b.metric("cu.wait_429_s") == doctest::Approx(1.5));
    CHECK(*b.metric("cu.seconds_excl_429") == doctest::Approx(*b.metric("cu.seconds") - 1.5));
}

TEST_CASE("create_users step: a failed or malformed answer ends the repetition naming the call") {
    StepBench failed(R"({"step": "create_users", "count": 2})");
    failed.port.answer(PortCall::create_user, [](const json::object&) {
        return reply_error(STAND_E_BAD_RESPONSE, "HTTP 500 from /panel/api/inbounds/addClient");
    });
    CHECK(failed.failure_of_all() == "panel.create_user: HTTP 500 from /panel/api/inbounds/addClient");
    CHECK(failed.ctx.state.users.empty());

    StepBench malformed(R"({"step": "create_users", "count": 1})");
    malformed.port.answer(PortCall::create_user, json::value(json::object{{"id", "x"}}));
    CHECK(malformed.failure_of_all() == R"(panel.create_user(user1) returned no {id, subscription}: {"id":"x"})");
}
