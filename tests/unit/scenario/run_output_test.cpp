// What `stand report` writes next to a run (issue 52, item 15): never over
// one of the run's own files, and threshold names that differ where their
// limits differ.
#include "rundir/run_directory.hpp"
#include "scenario/scenario_error.hpp"
#include "scenario/scenario_parser.hpp"
#include "temp_dir.hpp"
#include "text/number_format.hpp"
#include "text/user_error.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

TEST_CASE("run output: a file inside the run or a hard link to one of its files is the run's") {
    stand::test::TempDir tmp;
    const fs::path run = tmp.path() / "run";
    fs::create_directories(run / "reps");
    std::ofstream(run / "results.json") << "{}";
    std::ofstream(run / "reps" / "p_r1.json") << "{}";
    const stand::rundir::RunDirectory dir(run);
    CHECK(dir.holds(run / "results.json"));
    CHECK(dir.holds(run / "reps" / ".." / "results.json"));
    fs::create_hard_link(run / "reps" / "p_r1.json", tmp.path() / "linked.json");
    CHECK(dir.holds(tmp.path() / "linked.json"));
    fs::create_symlink(run / "results.json", tmp.path() / "symlinked.json");
    CHECK(dir.holds(tmp.path() / "symlinked.json"));
    CHECK_FALSE(dir.holds(run / "bench.json"));  // not there yet: a new file
    std::ofstream(tmp.path() / "elsewhere.json") << "{}";
    CHECK_FALSE(dir.holds(tmp.path() / "elsewhere.json"));
    CHECK_THROWS_WITH_AS(dir.refuse_as_output("--output", run / "results.json"),
                         ("--output " + (run / "results.json").string() + ": a file of the run " + run.string() +
                          "; write it elsewhere")
                             .c_str(),
                         stand::text::UserError);
    CHECK_NOTHROW(dir.refuse_as_output("--output", tmp.path() / "elsewhere.json"));
}

TEST_CASE("run output: numbers written exactly, whole ones in digits") {
    using stand::text::format_exact;
    CHECK(format_exact(1000000) == "1000000");
    CHECK(format_exact(1000001) == "1000001");
    CHECK(format_exact(500) == "500");
    CHECK(format_exact(0.1) == "0.1");
    CHECK(format_exact(2.5e-7) == "2.5e-07");
    CHECK(format_exact(1e21) == "1e+21");
    CHECK(format_exact(-3) == "-3");
}

TEST_CASE("run output: thresholds at 1000000 and 1000001 get two names") {
    const std::string text = R"({"schema_version": 1, "name": "t", "plugins": ["p"],
      "phases": [{"name": "m", "steps": [{"step": "run_probe", "name": "D", "job": "j"}]}],
      "thresholds": [{"metric": "D.x", "below": 1000000}, {"metric": "D.x", "below": 1000001},
                     {"metric": "D.x", "above": 0.1}]})";
    const auto s = stand::scenario::parse_scenario_text(text, "t.json");
    REQUIRE(s.thresholds.size() == 3);
    CHECK(s.thresholds[0].as_object().at("name") == "D.x < 1000000 (median)");
    CHECK(s.thresholds[1].as_object().at("name") == "D.x < 1000001 (median)");
    CHECK(s.thresholds[2].as_object().at("name") == "D.x > 0.1 (median)");
}
