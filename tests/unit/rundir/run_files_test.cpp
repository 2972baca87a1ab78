// The schema of a repetition's JSON and results.json (rundir/run_files.hpp):
// what it refuses, that the writer applies it, and that docs/run-files.md
// documents every key.
#include "rundir/run_directory.hpp"
#include "rundir/run_files.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace json = boost::json;
using namespace stand::rundir;

namespace {

json::object minimal_rep() {
    return {{"key", "nginx_r1"}, {"plugin", "nginx"}, {"rep", 1}, {"status", "ok"},
            {"metrics", {{"load1.rps", 1200.5}}},
            {"steps", json::array{{{"path", "$.phases[0].steps[0]"}, {"kind", "load"}, {"name", "load1"}, {"seconds", 2.0}}}},
            {"findings", json::array{{{"id", "machine-busy"}, {"scope", "nginx rep 1"}, {"message", "busy"}}}}};
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
    for (const auto& p : problems)
        if (p.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("run files: a repetition's JSON is checked against its schema") {
    CHECK(rep_problems(minimal_rep()).empty());

    auto rep = minimal_rep();
    rep.erase("plugin");
    CHECK(mentions(rep_problems(rep), "plugin: missing"));

    rep = minimal_rep();
    rep["status"] = "done";
    CHECK(mentions(rep_problems(rep), "status: \"done\" is not running, ok, failed or interrupted"));

    rep = minimal_rep();
    rep["metrics"].as_object()["load1.rps"] = "fast";
    CHECK(mentions(rep_problems(rep), "metrics.load1.rps: expected a number"));

    rep = minimal_rep();
    rep["steps"].as_array()[0].as_object().erase("seconds");
    CHECK(mentions(rep_problems(rep), "steps[0].seconds: expected a number"));

    rep = minimal_rep();
    rep["findings"].as_array()[0].as_object()["id"] = 3;
    CHECK(mentions(rep_problems(rep), "findings[0].id: expected a string"));

    rep = minimal_rep();
    rep["rep"] = "one";
    CHECK(mentions(rep_problems(rep), "rep: expected an integer"));

    rep = minimal_rep();
    rep["surprise"] = 1;
    CHECK(mentions(rep_problems(rep), "surprise: not a key of this file's schema"));
}

TEST_CASE("run files: the writer adds the version and refuses a repetition that breaks the schema") {
    stand::test::TempDir tmp;
    RunDirectory dir(tmp.path());
    dir.create_layout();
    dir.write_rep("nginx_r1", minimal_rep());
    const auto back = dir.read_rep("nginx_r1");
    REQUIRE(back);
    CHECK(back->at("schema_version") == kRepSchemaVersion);

    auto bad = minimal_rep();
    bad["metrics"].as_object()["x"] = json::array{};
    CHECK_THROWS_WITH_AS(dir.write_rep("nginx_r2", bad),
                         doctest::Contains("internal error: reps/nginx_r2.json would break its schema"), std::logic_error);

    // A file edited by hand is refused on reading, naming the file and the key.
    std::ofstream(tmp.path() / "reps" / "nginx_r3.json") << R"({"key":"nginx_r3","plugin":"nginx","rep":"3","status":"ok"})";
    CHECK_THROWS_WITH(dir.read_all_reps(), doctest::Contains("nginx_r3.json: not a repetition of schema version 1"));
    CHECK_THROWS_WITH(dir.read_rep("nginx_r3"), doctest::Contains("rep: expected an integer"));
}

TEST_CASE("run files: results.json's schema covers its repetitions") {
    json::object results{{"schema_version", kResultsSchemaVersion}, {"run", json::object{}}, {"summary", json::object{}},
                         {"findings", json::array{}}, {"checks", json::array{}}, {"reps", json::array{minimal_rep()}}};
    CHECK(results_problems(results).empty());
    results["reps"].as_array()[0].as_object().erase("status");
    CHECK(mentions(results_problems(results), "reps[0].status: missing"));
    results.erase("summary");
    CHECK(mentions(results_problems(results), "summary: missing"));
}

TEST_CASE("run files: docs/run-files.md documents every key of the schema") {
    std::ifstream in(std::string(STAND_TEST_SOURCE_DIR) + "/docs/run-files.md");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    for (const auto* fields : {&rep_fields(), &results_fields()})
        for (const FieldSpec& f : *fields) {
            INFO("key " << f.key);
            CHECK(doc.find("| `" + std::string(f.key) + "` |") != std::string::npos);
            CHECK(doc.find(std::string(f.meaning)) != std::string::npos);
        }
}

TEST_CASE("run files: a fresh run directory stays one directory under its parent, whatever the scenario's name") {
    using stand::rundir::RunDirectory;
    const auto plain = RunDirectory::fresh_path("runs", "quickstart");
    CHECK(plain.parent_path() == "runs");
    CHECK(plain.filename().string().rfind("quickstart-", 0) == 0);
    const std::vector<std::string> names{"../../../x/ESCAPED", "a b/c", std::string(5000, 'x'), ".hidden", "", "%00"};
    for (const std::string& name : names) {
        const auto path = RunDirectory::fresh_path("runs", name);
        CAPTURE(name);
        CHECK(path.parent_path() == "runs");
        const std::string dir = path.filename().string();
        CHECK(dir.size() <= 64 + 1 + 15 + 4);
        CHECK(dir.front() != '.');
        CHECK(dir.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
              std::string::npos);
    }
}
