// Scenario parameters and the panel steps (bootstrap, create_users,
// disk_usage, subscription loads with churn, restart with admin_api).
#include "scenario/data_bytes.hpp"
#include "scenario/scenario_parser.hpp"
#include "scenario/steps/panel.hpp"
#include "scenario/steps/load.hpp"
#include "scenario/steps/lifecycle.hpp"
#include "scenario/steps/waits.hpp"
#include "scenario/step_metrics.hpp"
#include "scenario_errors.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace stand::scenario;
using stand::test::error_of;

namespace {

std::string scenario_with(const std::string& steps, const std::string& params = "") {
    return R"({"schema_version": 1, "name": "t", "plugins": ["p"], )" + params + R"("phases": [{"name": "x", "steps": [)" +
           steps + "]}]}";
}

}  // namespace

TEST_CASE("scenario params: defaults, overrides, and errors naming the JSON path") {
    const std::string text = scenario_with(R"({"step": "create_users", "name": "u", "count": "${users}"},
                                              {"step": "idle", "duration_s": "${idle_s}"})",
                                           R"("params": {"users": 200, "idle_s": 1.5}, )");
    auto s = parse_scenario_text(text, "t.json");
    CHECK(s.phases[0].steps[0].action.get<CreateUsersStep>().count == 200);
    CHECK(s.phases[0].steps[1].action.get<IdleStep>().duration.count() == doctest::Approx(1.5));
    CHECK(s.params.at("users") == 200);

    auto shorter = parse_scenario_text(text, "t.json", {{"users", "5"}});
    CHECK(shorter.phases[0].steps[0].action.get<CreateUsersStep>().count == 5);
    CHECK(shorter.params.at("users") == 5);

    CHECK(error_of(text, {{"userz", "5"}}).find("--param userz: the scenario declares no such parameter (declared: users, idle_s)") !=
          std::string::npos);
    CHECK(error_of(text, {{"users", "many"}}) ==
          "t.json: $.phases[0].steps[0].count: expected a positive integer, got \"many\"");
    CHECK(error_of(scenario_with(R"({"step": "idle", "duration_s": "${nope}"})")) ==
          "t.json: $.phases[0].steps[0].duration_s: expected a declared parameter (see $.params), got \"${nope}\"");
    // A plugin's own placeholders are left alone.
    auto plugin = parse_scenario_text(
        R"({"schema_version": 1, "name": "t", "plugins": [{"id": "p", "config": {"dir": "${data_dir}"}}],
            "phases": [{"name": "x", "steps": [{"step": "start"}]}]})",
        "t.json");
    CHECK(plugin.plugins[0].config.at("dir") == "${data_dir}");
}

TEST_CASE("scenario params: a table's title and labels state the run's values, not the file's") {
    const std::string text = R"json({"schema_version": 1, "name": "t", "plugins": ["p"],
        "params": {"users": 1000, "vcpu": 2, "mode": "fast"},
        "phases": [{"name": "x", "steps": [{"step": "create_users", "name": "u", "count": "${users}"}]}],
        "tables": [{"title": "One server, ${vcpu} vCPU: panel with ${users} users",
                    "rows": [{"label": "${users} users, ${mode} (s)", "metric": "u.seconds"}]}]})json";
    auto defaults = parse_scenario_text(text, "t.json");
    CHECK(defaults.tables[0].title == "One server, 2 vCPU: panel with 1000 users");
    auto small = parse_scenario_text(text, "t.json", {{"users", "20"}, {"vcpu", "1.5"}});
    CHECK(small.tables[0].title == "One server, 1.5 vCPU: panel with 20 users");
    CHECK(small.tables[0].rows[0].label == "20 users, fast (s)");
    CHECK(error_of(R"({"schema_version": 1, "name": "t", "plugins": ["p"],
        "phases": [{"name": "x", "steps": [{"step": "create_users", "name": "u"}]}],
        "tables": [{"title": "with ${users} users", "rows": [{"label": "s", "metric": "u.seconds"}]}]})") ==
          "t.json: $.tables[0].title: expected text whose \"${...}\" name declared parameters (see $.params), got "
          "\"with ${users} users\"");
    // The shipped one-server comparison's title follows its params.
    auto one_server = parse_scenario_file(std::filesystem::path(STAND_TEST_SOURCE_DIR) / "scenarios/one-server.json",
                                          {{"users", "500"}, {"vcpu", "1"}});
    CHECK(one_server.tables[0].title == "One server, 1 vCPU / 2 GiB: panel with 500 users");
}

TEST_CASE("scenario panel steps: keys, defaults and the metrics they produce") {
    auto s = parse_scenario_text(scenario_with(R"({"step": "bootstrap"},
        {"step": "create_users", "name": "users", "count": 10, "prefix": "u"},
        {"step": "disk_usage", "name": "disk"},
        {"step": "load", "name": "storm", "links": "subscriptions", "rate": 300, "bind_prefix": "127.1",
         "xff": true, "warmup_once": true, "churn_per_s": 1, "duration_s": 5, "dashboards": 3},
        {"step": "restart", "name": "back", "admin_api": true},
        {"step": "load", "name": "plain", "links": "subscriptions", "rate": 10})"),
                                 "t.json");
    const auto& steps = s.phases[0].steps;
    CHECK(steps[0].name == "bootstrap1");
    CHECK(steps[0].timeout == std::chrono::milliseconds(300000));
    const auto& users = steps[1].action.get<CreateUsersStep>();
    CHECK(users.count == 10);
    CHECK(users.prefix == "u");
    const auto& load = steps[3].action.get<LoadStep>();
    CHECK(load.subscription_links);
    CHECK(load.xff_per_link);
    CHECK(load.warmup_once);
    CHECK(load.bind_prefix == "127.1");
    CHECK(load.churn_per_s == 1);
    CHECK(load.dashboards == 3);
    CHECK(steps[5].action.get<LoadStep>().dashboards == 0);
    CHECK(steps[4].action.get<RestartStep>().admin_api);

    CHECK(produces_metric(steps[1], "users.waits_429"));
    CHECK(produces_metric(steps[1], "users.seconds_excl_429"));
    CHECK(produces_metric(steps[2], "disk.data_mib"));
    CHECK(produces_metric(steps[3], "storm.ok_p95_ms"));
    CHECK(produces_metric(steps[3], "storm.admin_add_p95_ms"));
    CHECK(produces_metric(steps[3], "storm.late_pct"));
    CHECK(produces_metric(steps[3], "storm.dash_p95_ms"));
    CHECK(produces_metric(steps[3], "storm.dash_error_pct"));
    CHECK_FALSE(produces_metric(steps[5], "plain.dash_p95_ms"));
    CHECK_FALSE(produces_metric(steps[5], "plain.admin_add_p95_ms"));
    CHECK(produces_metric(steps[4], "back.admin_api_seconds"));
    CHECK_FALSE(produces_metric(steps[0], "bootstrap1.users"));
}

TEST_CASE("scenario panel steps: bad values name the JSON path") {
    CHECK(error_of(scenario_with(R"({"step": "create_users"})")) ==
          "t.json: $.phases[0].steps[0].count: expected an integer 1..100000, got nothing");
    CHECK(error_of(scenario_with(R"({"step": "load", "links": "all"})")) ==
          "t.json: $.phases[0].steps[0].links: expected \"subscriptions\" or \"endpoint\", got \"all\"");
    CHECK(error_of(scenario_with(R"({"step": "load", "links": "subscriptions", "path": "/x"})")).find("no urls or path") !=
          std::string::npos);
    for (const std::string& bad : std::vector<std::string>{"10.1", "127.256", "127.099", "127.", "127.1.2", "127x", std::string(100000, '7')})
        CHECK(error_of(scenario_with(R"({"step": "load", "bind_prefix": ")" + bad + R"("})"))
                  .find("$.phases[0].steps[0].bind_prefix") != std::string::npos);
    for (const std::string good : {"127", "127.0", "127.05", "127.99", "127.199", "127.255"})
        CHECK(error_of(scenario_with(R"({"step": "load", "bind_prefix": ")" + good + R"("})")).empty());
    CHECK(error_of(scenario_with(R"({"step": "load", "dashboards": 0})")) ==
          "t.json: $.phases[0].steps[0].dashboards: expected a positive integer up to 100, got 0");
    CHECK(error_of(scenario_with(R"({"step": "load", "from": "controller", "dashboards": 1})"))
              .find("$.phases[0].steps[0].dashboards: expected no dashboards from the controller") != std::string::npos);
    CHECK(error_of(scenario_with(R"({"step": "bootstrap", "count": 1})")).find("$.phases[0].steps[0]") != std::string::npos);
}

TEST_CASE("disk_usage: data bytes count regular files and never follow a link") {
    namespace fs = std::filesystem;
    const fs::path root = fs::temp_directory_path() / ("stand-data-bytes-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "data" / "bin");
    fs::create_directories(root / "installed");
    std::ofstream(root / "data" / "x-ui.db") << std::string(1000, 'x');
    std::ofstream(root / "installed" / "xray") << std::string(50000, 'y');
    fs::create_symlink(root / "installed" / "xray", root / "data" / "bin" / "xray");
    fs::create_directory_symlink(root / "installed", root / "data" / "installed-link");
    CHECK(stand::scenario::data_bytes({root / "data", root / "missing"}) == doctest::Approx(1000));
    fs::remove_all(root);
}
