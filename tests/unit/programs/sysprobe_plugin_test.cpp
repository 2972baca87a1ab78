// The system probe (build/plugins/sysprobe.so) through a plugin worker: its
// jobs listed, one run, the contract's keys, and the 7z row left empty with a
// note when no 7z is on the PATH. Its measuring code:
// plugins/sysprobe/tests/sysprobe_test.cpp.
#include "jobs.hpp"
#include "isolation/plugin_worker.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

using namespace std::chrono_literals;
using namespace stand_sysprobe;

TEST_CASE("sysprobe: the plugin lists its jobs and runs one and leaves the 7z row empty with a note when 7z is missing") {
    const auto plugin = stand::test::build_dir() / "plugins" / "sysprobe.so";
    REQUIRE_MESSAGE(std::filesystem::exists(plugin), plugin.string() << " is not built");
    stand::test::TempDir run_dir, empty_bin;
    const std::string saved_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", empty_bin.path().c_str(), 1);  // the worker inherits it: no 7z anywhere
    stand::isolation::WorkerOptions o;
    o.plugin_file = plugin;
    o.plugin_id = "sysprobe";
    o.host.run_dir = run_dir.path();
    o.stand_binary = stand::test::stand_binary();
    stand::isolation::PluginWorker worker(o);
    ::setenv("PATH", saved_path.c_str(), 1);
    REQUIRE_MESSAGE(worker.create("{}", 10s).ok(), "create failed");

    auto jobs = worker.call("probe.list_jobs", {}, 10s);
    REQUIRE(jobs.ok());
    CHECK(jobs.output.as_array().size() == 7);
    CHECK(worker.call("probe.run", {{"job", "sha256"}}, 10s).code == STAND_E_BAD_STATE);
    auto bad = worker.call("probe.prepare", {{"job", "sha256"}, {"params", {{"duration_s", 0}}}}, 10s);
    CHECK(bad.code == STAND_E_INVALID_ARGUMENT);
    CHECK(bad.error.find("sysprobe: sha256: params.duration_s") != std::string::npos);

    REQUIRE(worker.call("probe.prepare", {{"job", "sha256"}, {"params", {{"duration_s", 1}}}}, 10s).ok());
    auto run = worker.call("probe.run", {{"job", "sha256"}}, 30s);
    REQUIRE_MESSAGE(run.ok(), run.error);
    CHECK(run.output.at("metrics").at("mb_s").to_number<double>() > 0);
    CHECK(run.output.at("facts").at("cpu_model").as_string().size() > 0);
    CHECK(run.output.at("notes").as_array().empty());
    CHECK(worker.call("probe.cleanup", {{"job", "sha256"}}, 10s).code == STAND_OK);
    CHECK(worker.call("probe.cleanup", {{"job", "sha256"}}, 10s).code == STAND_OK_NOTHING_TO_DO);

    REQUIRE(worker.call("probe.prepare", {{"job", "7z-bench"}, {"params", boost::json::object{}}}, 10s).ok());
    auto none = worker.call("probe.run", {{"job", "7z-bench"}}, 30s);
    REQUIRE_MESSAGE(none.ok(), none.error);
    CHECK(none.output.at("metrics").as_object().empty());
    REQUIRE(none.output.at("notes").as_array().size() == 1);
    CHECK(none.output.at("notes").at(0).as_string() == kSevenZipMissingNote);
    CHECK(worker.shutdown(10s).ok());
}
