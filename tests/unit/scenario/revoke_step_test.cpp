// revoke_under_traffic's keys (scenario/steps/revoke.cpp): what the parser
// takes, refuses and defaults, and the metrics a table may name. The step
// itself runs on the real 3x-ui (real.3x-ui.one_server).
#include "scenario/scenario_parser.hpp"
#include "scenario/step_metrics.hpp"
#include "scenario/steps/revoke.hpp"
#include "scenario_errors.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace stand::scenario;
using stand::test::error_of;

namespace {

std::string with_step(const std::string& keys) {
    return R"({"schema_version": 1, "name": "t", "plugins": ["3x-ui"], "phases": [)"
           R"({"name": "setup", "steps": [{"step": "create_users", "count": 100}]}, {"name": "p", "steps": [)"
           R"({"step": "revoke_under_traffic", "name": "rv", )" + keys + "}]}]}";
}

}  // namespace

TEST_CASE("revoke step: keys and defaults") {
    const Scenario s = parse_scenario_text(with_step(R"("action": "disable", "user": 3, "others": 5, "streams": 8,
                                                       "after_s": 2, "watch_s": 20, "probe_every_ms": 50)"),
                                           "t.json");
    const Step& step = s.phases[1].steps[0];
    const auto& r = step.action.get<RevokeStep>();
    CHECK(r.action == RevokeStep::Action::disable_user);
    CHECK(r.source.user == 3);
    CHECK(r.others == 5);
    CHECK(r.streams == 8);
    CHECK(r.after.count() == 2);
    CHECK(r.watch.count() == 20);
    CHECK(r.probe_every.count() == 50);
    CHECK(step.timeout > std::chrono::seconds(22));
    for (const char* m : {"rv.refused_s", "rv.streams_stopped_s", "rv.still_flowing", "rv.others_streams_dropped"})
        CHECK(produces_metric(step, m));
    const Scenario defaults = parse_scenario_text(with_step(R"("action": "delete")"), "t.json");
    const auto& d = defaults.phases[1].steps[0].action.get<RevokeStep>();
    CHECK(d.action == RevokeStep::Action::delete_user);
    CHECK(d.others == 1);
    CHECK(d.streams == 4);
    CHECK(d.watch.count() == 10);
}

TEST_CASE("revoke step: refusals name the key") {
    CHECK(error_of(with_step(R"("user": 0)")) ==
          R"(t.json: $.phases[1].steps[0].action: expected "delete" or "disable", got nothing)");
    CHECK(error_of(with_step(R"("action": "limit")")).find(R"(action: expected "delete" or "disable")") != std::string::npos);
    // No "server": each tunnel is a created user's own link, whose credential is revoked.
    CHECK(error_of(with_step(R"("action": "delete", "server": "hysteria2://a@127.0.0.1:1/")")).find(
              "server: expected a key of a revoke_under_traffic step") != std::string::npos);
    CHECK(error_of(with_step(R"("action": "delete", "watch_s": 1)")).find("watch_s: expected at least 2 seconds") !=
          std::string::npos);
    CHECK(error_of(with_step(R"("action": "delete", "others": 65)")).find("others") != std::string::npos);
    CHECK(error_of(with_step(R"("action": "delete", "rate": 5)")).find("rate: expected a key of a revoke_under_traffic step") !=
          std::string::npos);
}
