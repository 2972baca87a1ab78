// compat's parts that need no plugin: a check in a forked child (crash,
// hang, exit without a result), the --check selection, the JUnit and JSON
// output. The suite on the hello example: programs/compat_test.cpp.
#include "child/child_runner.hpp"
#include "compat/check_selection.hpp"
#include "compat/compat_output.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace stand;
using namespace std::chrono_literals;

TEST_CASE("child runner: pass, fail, crash, hang and exit without result") {
    auto ok = compat::run_in_child([] { return compat::ChildResult{true, false, "fine", 0}; }, 5s);
    CHECK(ok.passed);
    CHECK(ok.message == "fine");

    auto failed = compat::run_in_child([] { return compat::ChildResult{false, false, "nope", 0}; }, 5s);
    CHECK_FALSE(failed.passed);
    CHECK(failed.message == "nope");

    auto crashed = compat::run_in_child([]() -> compat::ChildResult {
        std::raise(SIGSEGV);
        return {true, false, "", 0};
    }, 5s);
    CHECK_FALSE(crashed.passed);
    CHECK(crashed.message == "crashed with SIGSEGV (signal 11)");

    auto t0 = std::chrono::steady_clock::now();
    auto hung = compat::run_in_child([]() -> compat::ChildResult {
        std::this_thread::sleep_for(60s);
        return {true, false, "", 0};
    }, 300ms);
    CHECK_FALSE(hung.passed);
    CHECK(hung.message == "hung: no result within 300 ms (child killed)");
    CHECK(std::chrono::steady_clock::now() - t0 < 5s);

    auto exited = compat::run_in_child([]() -> compat::ChildResult { std::_Exit(3); }, 5s);
    CHECK_FALSE(exited.passed);
    CHECK(exited.message == "child exited with code 3 without a result");
}

TEST_CASE("compat: an unknown --check id names the closest known one, or why panel checks are absent") {
    const std::vector<std::string> known = {"generic.load", "generic.invalid-config", "panel.subscriptions-decode"};
    CHECK(compat::check_selection_problem({"generic.load", "panel.subscriptions-decode"}, known).empty());
    CHECK(compat::check_selection_problem({}, known).empty());
    CHECK(compat::check_selection_problem({"panel.subscription-decode"}, known) ==
          "--check: no check 'panel.subscription-decode' here (did you mean panel.subscriptions-decode?); the checks "
          "of this plugin with these options: generic.load, generic.invalid-config, panel.subscriptions-decode");
    const auto no_panel = compat::check_selection_problem({"panel.start-ready"}, {"generic.load"});
    CHECK(no_panel.find("(the panel checks run with --target-config FILE, for a plugin declaring stand.panel/1)") !=
          std::string::npos);
    CHECK(compat::check_selection_problem({"frobnicate"}, known).find("--check: no check 'frobnicate' here; the") == 0);
}

TEST_CASE("compat output: JUnit XML counts failures and escapes messages") {
    compat::CompatReport report;
    report.plugin_label = "demo";
    report.file = "/x/demo.so";
    report.checks.push_back({"generic.load", "load", {true, false, "ok", 1.5}});
    report.checks.push_back({"generic.invalid-config", "cfg", {false, false, "bad <config> & \"quotes\"", 2}});
    std::string xml = compat::to_junit_xml(report);
    CHECK(xml.find("tests=\"2\" failures=\"1\"") != std::string::npos);
    CHECK(xml.find("<failure message=\"bad &lt;config&gt; &amp; &quot;quotes&quot;\">") != std::string::npos);
    CHECK(compat::format_summary(report) == "1 passed, 1 failed");
    auto json = compat::to_json(report);
    CHECK(json["failed"].as_uint64() == 1);
}
