// traffic_accounting's keys (scenario/steps/accounting.cpp): what the parser
// takes, refuses and defaults, and the metrics a table may name. The step
// itself runs on the real 3x-ui (real.3x-ui.accounting) and on the 3x-ui
// double with the Hysteria 2 server library (scenario.accounting_double).
#include "scenario/scenario_parser.hpp"
#include "scenario/step_metrics.hpp"
#include "scenario/steps/accounting.hpp"
#include "scenario_errors.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace stand::scenario;
using stand::test::error_of;

namespace {

std::string with_step(const std::string& keys) {
    return R"({"schema_version": 1, "name": "t", "plugins": ["3x-ui"], "phases": [)"
           R"({"name": "setup", "steps": [{"step": "create_users", "count": 5000}]}, {"name": "p", "steps": [)"
           R"({"step": "traffic_accounting", "name": "acc")" + std::string(keys.empty() ? "" : ", ") + keys + "}]}]}";
}

}  // namespace

TEST_CASE("accounting step: keys and defaults") {
    const Scenario s = parse_scenario_text(with_step(R"("user": 3, "users": 100, "mib_per_user": 0.5, "ramp_s": 5,
                                                       "transfer_within_s": 120, "settle_within_s": 90,
                                                       "poll_every_s": 2, "tolerance_pct": 3)"),
                                           "t.json");
    const Step& step = s.phases[1].steps[0];
    const auto& a = step.action.get<AccountingStep>();
    CHECK(a.source.user == 3);
    CHECK(a.users == 100);
    CHECK(a.mib_per_user == 0.5);
    CHECK(a.ramp.count() == 5);
    CHECK(a.transfer_within.count() == 120);
    CHECK(a.settle_within.count() == 90);
    CHECK(a.poll_every.count() == 2);
    CHECK(a.tolerance_pct == 3);
    // The links, both windows and a count read per user before and at each poll fit in it.
    CHECK(step.timeout > std::chrono::seconds(120 + 90 + 100));
    for (const char* m : {"acc.ratio", "acc.ratio_median", "acc.settle_s", "acc.users_uncounted", "acc.links_s"})
        CHECK(produces_metric(step, m));
    const Scenario defaults = parse_scenario_text(with_step(""), "t.json");
    const auto& d = defaults.phases[1].steps[0].action.get<AccountingStep>();
    CHECK(d.source.user == 0);
    CHECK(d.users == 1);
    CHECK(d.mib_per_user == 4);
    CHECK(d.settle_within.count() == 60);
    CHECK(d.tolerance_pct == 1);
}

TEST_CASE("accounting step: refusals name the key") {
    // No "server": each user is counted through its own link.
    CHECK(error_of(with_step(R"("server": "hysteria2://a@127.0.0.1:1/")")).find(
              "server: expected a key of a traffic_accounting step") != std::string::npos);
    CHECK(error_of(with_step(R"("users": 0)")).find("users") != std::string::npos);
    CHECK(error_of(with_step(R"("users": 4097)")).find("users") != std::string::npos);
    CHECK(error_of(with_step(R"("mib_per_user": 2048)")).find("mib_per_user") != std::string::npos);
    CHECK(error_of(with_step(R"("ramp_s": 10, "transfer_within_s": 5)")).find(
              "ramp_s: expected a number of seconds less than transfer_within_s") != std::string::npos);
    CHECK(error_of(with_step(R"("tolerance_pct": 0)")).find("tolerance_pct") != std::string::npos);
}

TEST_CASE("created users: a step naming users the create_users steps before it do not create is refused when read") {
    const auto scenario = [](const std::string& steps) {
        return R"({"schema_version": 1, "name": "t", "plugins": ["3x-ui"], "phases": [{"name": "p", "steps": [)" + steps +
               "]}]}";
    };
    CHECK(error_of(scenario(R"({"step": "create_users", "count": 20},
                                {"step": "traffic_accounting", "name": "F400", "user": 3, "users": 400})")) ==
          "t.json: $.phases[0].steps[1]: traffic_accounting \"F400\" uses users up to index 402, but the create_users "
          "steps before it create 20 users (indices from 0): create more, or name fewer");
    CHECK(error_of(scenario(R"({"step": "revoke_under_traffic", "action": "delete", "user": 0},
                                {"step": "create_users", "count": 5})"))
              .find("revoke_under_traffic \"revoke_under_traffic1\" uses users up to index 1, but the create_users steps "
                    "before it create 0 users") != std::string::npos);
    CHECK(error_of(scenario(R"({"step": "create_users", "count": 2}, {"step": "many_clients", "clients": 3})"))
              .find("uses users up to index 2, but the create_users steps before it create 2 users") != std::string::npos);
    // Enough, over several create_users steps; a given link names no user.
    CHECK_NOTHROW(parse_scenario_text(scenario(R"({"step": "create_users", "count": 200},
        {"step": "create_users", "count": 203}, {"step": "traffic_accounting", "user": 3, "users": 400},
        {"step": "many_clients", "clients": 4000, "server": "hysteria2://a@127.0.0.1:1/"})"),
                                      "t.json"));
}

TEST_CASE("created users: a load of the users' subscription links with no create_users before it is refused when read") {
    const std::string text =
        R"({"schema_version": 1, "name": "t", "plugins": ["3x-ui"], "phases": [{"name": "p", "steps": [
            {"step": "load", "links": "subscriptions", "duration_s": 1}, {"step": "create_users", "count": 2}]}]})";
    CHECK(error_of(text) ==
          "t.json: $.phases[0].steps[0]: load \"load1\" uses the created users, but no create_users step comes before it");
}
