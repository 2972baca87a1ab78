// The capacity step's keys (scenario/steps/capacity.cpp): what the parser
// takes, refuses and defaults, and the metrics a table may name; and how a
// level's generator is judged.
#include "load/load_result.hpp"
#include "scenario/scenario_parser.hpp"
#include "scenario/step_metrics.hpp"
#include "scenario/steps/capacity.hpp"
#include "scenario_errors.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

using namespace stand::scenario;
using stand::test::error_of;

namespace {

std::string with_step(const std::string& keys) {
    return R"({"schema_version": 1, "name": "t", "plugins": ["nginx"], "phases": [{"name": "p", "steps": [)"
           R"({"step": "capacity", "name": "cap", )" + keys + "}]}]}";
}

const std::string kPlan = R"("from_rate": 100, "to_rate": 6400, "objective": {"p95_ms": 50})";

}  // namespace

TEST_CASE("capacity step: its keys, the load's, and the defaults") {
    const Scenario s = parse_scenario_text(with_step(kPlan + R"(, "path": "/sub", "threads": 2, "factor": 4,
                                                                 "resolution_pct": 2.5, "dwell_s": 3)"),
                                           "t.json");
    const Step& step = s.phases[0].steps[0];
    const auto& c = step.action.get<CapacityStep>();
    CHECK(c.load.path == "/sub");
    CHECK(c.load.threads == 2);
    CHECK(c.load.connections == 256);
    CHECK(c.plan.factor == 4);
    CHECK(c.plan.resolution_pct == 2.5);
    CHECK(c.dwell.count() == 3);
    REQUIRE(c.plan.objective.size() == 3);  // and error_pct (not named: at most 1) and behind_pct, always
    CHECK(c.plan.objective[1].metric == "error_pct");
    CHECK(c.plan.objective[1].at_most == 1);
    CHECK(c.plan.objective[2].metric == "behind_pct");
    CHECK(step.timeout > std::chrono::seconds(60));
    CHECK(produces_metric(step, "cap.max_rate"));
    CHECK(produces_metric(step, "cap.level12.p95_ms"));
    CHECK_FALSE(produces_metric(step, "cap.level.p95_ms"));
    CHECK_FALSE(produces_metric(step, "cap.levelx.p95_ms"));
    CHECK_FALSE(produces_metric(step, "cap.level1.nothing"));
}

TEST_CASE("capacity step: refusals name the key") {
    CHECK(error_of(with_step(R"("from_rate": 100, "to_rate": 6400)")) ==
          R"(t.json: $.phases[0].steps[0].objective: expected an object of limits, e.g. {"p95_ms": 500, "error_pct": 1}, got nothing)");
    CHECK(error_of(with_step(R"("from_rate": 100, "to_rate": 6400, "objective": {"p95": 50})")).find(
              "$.phases[0].steps[0].objective") != std::string::npos);
    CHECK(error_of(with_step(R"("from_rate": 100, "to_rate": 6400, "objective": {})")).find("at least one limit") !=
          std::string::npos);
    CHECK(error_of(with_step(R"("from_rate": 100, "to_rate": 50, "objective": {"p95_ms": 50})")).find(
              "to_rate: expected a rate at least from_rate (100)") != std::string::npos);
    CHECK(error_of(with_step(kPlan + R"(, "factor": 1)")).find("factor: expected a number greater than 1") !=
          std::string::npos);
    CHECK(error_of(with_step(kPlan + R"(, "rate": 10)")).find("rate: expected a key of a capacity step") != std::string::npos);
    CHECK(error_of(with_step(kPlan + R"(, "duration_s": 10)")).find("duration_s: expected a key of a capacity step") != std::string::npos);
    CHECK(error_of(with_step(R"("from_rate": 100, "to_rate": 6400, "objective": {"error_pct": 0})")).empty());
    const Scenario named = parse_scenario_text(with_step(R"("from_rate": 100, "to_rate": 6400,
                                                            "objective": {"p95_ms": 9, "error_pct": 5})"), "t.json");
    const auto& objective = named.phases[0].steps[0].action.get<CapacityStep>().plan.objective;
    CHECK(std::count_if(objective.begin(), objective.end(), [](const auto& l) { return l.metric == "error_pct"; }) == 1);
    // A level offering less than one request measures nothing; a rate of 1e-300 never sends its second.
    CHECK(error_of(with_step(R"("from_rate": 1e-300, "to_rate": 10, "objective": {"p95_ms": 9})"))
              .find("from_rate: each level lasts dwell_s (10 s): a rate of 1e-300/s over 10s offers 1e-299 requests") !=
          std::string::npos);
    CHECK(error_of(with_step(R"("from_rate": 0.5, "to_rate": 10, "dwell_s": 1, "objective": {"p95_ms": 9})"))
              .find("from_rate: each level lasts dwell_s (1 s)") != std::string::npos);
    CHECK(error_of(with_step(R"("from_rate": 1, "to_rate": 10, "dwell_s": 1, "objective": {"p95_ms": 9})")).empty());
    CHECK(error_of(with_step(kPlan + R"(, "target": "admin")")).find(R"(target: expected "http" or "admin_create")") !=
          std::string::npos);
    CHECK(error_of(with_step(kPlan + R"(, "target": "admin_create", "path": "/x")")).find(
              "path: expected no HTTP load key with") != std::string::npos);
    CHECK(error_of(with_step(R"("target": "admin_create", "from_rate": 1, "to_rate": 64, "objective": {"box_cpu_pct": 90})"))
              .find("objective.box_cpu_pct: an admin_create level does not measure box_cpu_pct") != std::string::npos);
    CHECK(error_of(with_step(R"("target": "admin_create", "from_rate": 1, "to_rate": 64, "objective": {"p95_ms": 900})"))
              .empty());
}

TEST_CASE("capacity step: a generator short of CPU limits a level, a stall disturbs it, a hiccup is neither") {
    stand::load::LoadResult r;
    r.offered = 50;
    r.late_threshold_ms = 1;
    SUBCASE("one late send of 50 (2 %, seen on a busy CI machine): a hiccup") {
        r.late = r.late_with_free_connection = 1;
        const auto v = judge_generator(r);
        CHECK(v.limited.empty());
        CHECK(v.disturbed.empty());
    }
    SUBCASE("a stall: 12 of 400 late with a connection free, CPU to spare") {
        r.offered = 400;
        r.late = 20;
        r.late_with_free_connection = 12;
        r.cpu.percent_of_threads = 30;
        const auto v = judge_generator(r);
        CHECK(v.limited.empty());
        CHECK(v.disturbed == "the generator sent 3.0 % of the requests over 1 ms late with a connection free, though "
                             "its threads ran 30 % and waited for a CPU 0 % of the time");
    }
    SUBCASE("late sends under 1 %: neither") {
        r.offered = 4000;
        r.late = r.late_with_free_connection = 39;
        CHECK(judge_generator(r).disturbed.empty());
    }
    SUBCASE("short of CPU: limited, whatever the late sends") {
        r.generator_saturated = true;
        r.cpu.percent_of_threads = 71;
        r.cpu.percent_waiting = 25;
        const auto v = judge_generator(r);
        CHECK(v.limited == "its threads ran 71 % and waited for a CPU 25 % of the time");
        CHECK(v.disturbed.empty());
    }
}
