// Which interfaces a configured step calls (scenario/step_interfaces.hpp),
// checked against each plugin's before the run; and what machine-busy and
// a fleet host's relayed lines say.
#include "detect/machine_busy.hpp"
#include "fleetrun/host_run.hpp"
#include "load/load_spec.hpp"
#include "scenario/scenario_error.hpp"
#include "scenario/scenario_parser.hpp"
#include "scenario/step_interfaces.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace stand::scenario;

namespace {

Scenario with_steps(const std::string& steps) {
    return parse_scenario_text(
        R"({"schema_version": 1, "name": "t", "plugins": ["a", "b"], "phases": [{"name": "p", "steps": [)" + steps + "]}]}",
        "t.json");
}

const std::map<std::string, std::vector<std::string>> kDeclared = {
    {"a", {"stand.lifecycle/1", "stand.probe/1"}}, {"b", {"stand.lifecycle/1", "stand.panel/1"}}};

std::string refusal(const std::string& steps) {
    try {
        check_step_interfaces(with_steps(steps), kDeclared);
    } catch (const ScenarioError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

TEST_CASE("step interfaces: what a configured step calls") {
    const auto of = [](const std::string& step) {
        const auto found = step_interfaces(with_steps(step).phases[0].steps[0]);
        return std::vector<std::string>(found.begin(), found.end());
    };
    using V = std::vector<std::string>;
    CHECK(of(R"({"step": "sleep", "duration_s": 1})") == V{});
    CHECK(of(R"({"step": "bootstrap"})") == V{"stand.panel/1"});
    CHECK(of(R"({"step": "load", "duration_s": 1})") == V{"stand.lifecycle/1"});
    CHECK(of(R"({"step": "load", "urls": ["http://127.0.0.1:1/"], "duration_s": 1})") == V{});
    CHECK(of(R"({"step": "load", "dashboards": 2, "duration_s": 1})") == V{"stand.lifecycle/1", "stand.panel/1"});
    CHECK(of(R"({"step": "restart"})") == V{"stand.lifecycle/1"});
    CHECK(of(R"({"step": "restart", "admin_api": true})") == V{"stand.lifecycle/1", "stand.panel/1"});
    CHECK(of(R"({"step": "capacity", "target": "admin_create", "from_rate": 1, "to_rate": 2,
                 "objective": {"p95_ms": 9}})") == V{"stand.panel/1"});
    CHECK(of(R"({"step": "capacity", "from_rate": 1, "to_rate": 2, "objective": {"p95_ms": 9}})") ==
          V{"stand.lifecycle/1"});
}

TEST_CASE("step interfaces: a step its plugin cannot run is refused by step, plugin and interface") {
    CHECK(refusal(R"({"step": "bootstrap"})") ==
          "t.json: $.phases[0].steps[0]: bootstrap \"bootstrap1\" calls stand.panel/1, which plugin a does not "
          "implement (it has stand.lifecycle/1, stand.probe/1); give the step \"plugin\" to run it on another");
    CHECK(refusal(R"({"step": "bootstrap", "plugin": "b"})").empty());
    CHECK(refusal(R"({"step": "configure", "plugin": "b"})").find("calls stand.proxy/1, which plugin b does not") !=
          std::string::npos);
    CHECK(refusal(R"({"step": "start"}, {"step": "load", "urls": ["http://127.0.0.1:1/"], "duration_s": 1})").empty());
}

TEST_CASE("machine-busy: judged on the window before the repetition, not on a 10 s average that holds the last one") {
    stand::detect::MachineSnapshot s;
    s.window_s = 0.5;
    s.cpu_pressure_avg10 = 17;  // stand's own previous repetition, still in the average
    s.cpu_pressure_pct = 0.4;
    CHECK(stand::detect::check_machine(s, "x rep 2").empty());
    s.cpu_pressure_pct = 35;  // something else runs now
    const auto found = stand::detect::check_machine(s, "x rep 2");
    REQUIRE(found.size() == 1);
    CHECK(found[0].id == "machine-busy");
    CHECK(found[0].message == "tasks waited for a CPU 35 % of the 0.5 s before the repetition (CPU pressure)");
    CHECK(s.to_json().at("cpu_pressure_avg10").as_double() == 17);
}

TEST_CASE("fleet: a host's advice to resume there is not relayed (a run on hosts is not resumed)") {
    using stand::fleetrun::relayed_host_line;
    CHECK(relayed_host_line("stand: interrupted; finish with: stand run --resume /root/.stand/runs/x/run") ==
          "stand: interrupted");
    CHECK(relayed_host_line("3 repetitions ok, 0 failed, 0 already done") == "3 repetitions ok, 0 failed, 0 already done");
}

TEST_CASE("load spec: why a rate that offers no request in the duration is refused, with the figure") {
    CHECK(stand::load::rate_refusal(1e-10, std::chrono::seconds(1)) ==
          "a rate of 1e-10/s over 1s offers 1e-10 requests (one every 1e+10 s); a rate needs at least one request in "
          "the duration: 1/s or more");
}
