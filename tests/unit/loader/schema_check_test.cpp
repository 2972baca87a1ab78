// The host's check of probe params against a job's params_schema (issue 18:
// probe params were checked only when their step ran, after earlier steps).
#include "loader/schema_check.hpp"

#include <stand/cpp/config_spec.hpp>

#include <doctest/doctest.h>

#include <boost/json.hpp>

namespace json = boost::json;
using stand::loader::schema_problems;

namespace {

// The schema a disk-like probe publishes, written by the SDK's ConfigSpec.
json::value probe_schema() {
    stand::cpp::ConfigSpec spec;
    spec.string("dir", "the test directory").by_default(std::string("/var/tmp"));
    spec.integer("duration_s", "seconds").range(1, 3600).by_default(10);
    spec.integer("size_mib", "file size").range(1, 1 << 20).or_word("ram").by_default(1024);
    spec.integer("jobs", "threads").range(1, 64).zero_is_unset().by_default(0);
    spec.choice("engine", {"auto", "io_uring", "libaio"}, "the I/O engine").by_default(std::string("auto"));
    spec.string("label", "a name").pattern("^[a-z]+$", "lower-case letters");
    spec.boolean("direct", "O_DIRECT").by_default(true);
    spec.strings("extra", "more arguments");
    return spec.schema();
}

std::vector<std::string> problems(const char* params) { return schema_problems(json::parse(params), probe_schema()); }

}  // namespace

TEST_CASE("schema check: params that fit the published schema pass") {
    CHECK(problems(R"({})").empty());
    CHECK(problems(R"({"dir": "/tmp", "duration_s": 3600, "size_mib": "ram", "jobs": 0, "engine": "libaio",
                      "label": "abc", "direct": false, "extra": ["-v"]})")
              .empty());
}

TEST_CASE("schema check: each kind of misfit is named with its key, what was expected and what was given") {
    CHECK(problems(R"({"duration_s": 0})") ==
          std::vector<std::string>{"duration_s: expected a number 1..3600, got 0"});
    CHECK(problems(R"({"duration_s": "10"})") == std::vector<std::string>{"duration_s: expected integer, got \"10\""});
    CHECK(problems(R"({"duration_s": 2.5})") == std::vector<std::string>{"duration_s: expected integer, got 2.5"});
    CHECK(problems(R"({"engine": "posix"})") ==
          std::vector<std::string>{"engine: expected one of [\"auto\",\"io_uring\",\"libaio\"], got \"posix\""});
    CHECK(problems(R"({"label": "ABC"})") ==
          std::vector<std::string>{"label: expected text matching \"^[a-z]+$\", got \"ABC\""});
    CHECK(problems(R"({"jobs": 65})") == std::vector<std::string>{"jobs: expected 0, or a number 1..64, got 65"});
    CHECK(problems(R"({"extra": ["-v", 3]})") ==
          std::vector<std::string>{"extra: expected an array of string, got [\"-v\",3]"});
    CHECK(problems(R"({"drect": true})").at(0).starts_with("drect: unknown key (known: "));
    CHECK(problems(R"({"direct": 1, "dir": 2})").size() == 2);
}

TEST_CASE("config_problems: a plugin config against its published schema, a placeholder's value is the plugin's, its key is not") {
    using stand::loader::config_problems;
    const std::string schema = R"({"type":"object","additionalProperties":false,"properties":{
        "port":{"type":"integer","minimum":1,"maximum":65535},"binary":{"type":"string"},
        "box":{"type":"object","additionalProperties":false,"properties":{"cpus":{"type":"integer"}}}}})";
    auto problems = [&](const char* config) { return config_problems(boost::json::parse(config).as_object(), schema); };
    CHECK(problems(R"({"port": 8080, "binary": "/usr/bin/x"})").empty());
    CHECK(problems(R"({"port": "${port}", "box": {"cpus": "${cpus}"}})").empty());
    const auto wrong = problems(R"({"port": 0, "bogus": 1})");
    REQUIRE(wrong.size() == 2);
    CHECK(wrong[0].find("port: expected a number 1..65535, got 0") != std::string::npos);
    CHECK(wrong[1].find("bogus: unknown key") != std::string::npos);
    const auto misspelt = problems(R"({"prot": "${port}"})");
    REQUIRE(misspelt.size() == 1);
    CHECK(misspelt[0].find("prot: unknown key") != std::string::npos);
    CHECK(problems(R"({"box": {"cpu": 2}})").front().find("box.cpu: unknown key") != std::string::npos);
    CHECK(config_problems(boost::json::parse(R"({"x": 1})").as_object(), "not json").empty());
}
