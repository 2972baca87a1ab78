// The compat suite on the hello example (build/plugins/hello.so): every
// generic check, --check, a config the plugin rejects. compat's parts that
// need no plugin: compat/compat_test.cpp.
#include "compat/compat_output.hpp"
#include "compat/compat_suite.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <doctest/doctest.h>

using namespace stand;

TEST_CASE("compat: the hello example passes every generic check") {
    test::TempDir run_dir;
    compat::CompatOptions options;
    options.run_dir = run_dir.path();
    auto plugin = loader::load_plugin(test::hello_plugin());
    auto report = compat::run_compat(plugin, options);
    for (const auto& c : report.checks) {
        INFO(c.id << ": " << c.result.message);
        CHECK(c.result.passed);
    }
    CHECK(report.failed() == 0);
    CHECK(report.checks.size() == 6);  // 5 generic + stand.probe/1
    CHECK(report.checks.back().id == "interface.stand.probe/1");
}

TEST_CASE("compat: --check runs the named checks only and counts the others") {
    test::TempDir run_dir;
    compat::CompatOptions options;
    options.run_dir = run_dir.path();
    options.only_checks = {"interface.stand.probe/1", "generic.invalid-config"};
    auto report = compat::run_compat(loader::load_plugin(test::hello_plugin()), options);
    REQUIRE(report.checks.size() == 2);
    CHECK(report.checks[0].id == "generic.invalid-config");  // in the suite's order
    CHECK(report.checks[1].id == "interface.stand.probe/1");
    CHECK(report.not_selected == 4);
    CHECK(compat::format_summary(report) == "2 passed, 0 failed; 4 more check(s) of the suite not run (--check)");
    CHECK(compat::to_json(report).at("not_selected") == 4);
}

TEST_CASE("compat: a config the plugin rejects fails create-destroy with the plugin's message") {
    test::TempDir run_dir;
    compat::CompatOptions options;
    options.run_dir = run_dir.path();
    options.config_json = R"({"sleeps": "many"})";
    auto report = compat::run_compat(loader::load_plugin(test::hello_plugin()), options);
    REQUIRE(report.checks.size() >= 2);
    CHECK_FALSE(report.checks[1].result.passed);
    CHECK(report.checks[1].result.message ==
          "create() failed with invalid-argument: config.sleeps: expected an integer");
}
