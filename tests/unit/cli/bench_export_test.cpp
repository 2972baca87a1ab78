// `stand report RUN_DIR --bench-json`: the Bencher Metric Format checked
// against Bencher's published JSON Schema, github-action-benchmark's custom
// format against the action's published examples (keys and JSON types), both
// from tests/data/bench-formats/; and the table row keys (better, unit) that
// say which metrics the one-direction files may hold.
#include "json_schema_check.hpp"
#include "report/bench_export.hpp"
#include "rundir/run_tables.hpp"
#include "scenario_errors.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace {

namespace json = boost::json;
using stand::report::BenchFormat;
using stand::report::export_bench_json;

const std::filesystem::path kFormats = std::filesystem::path(STAND_TEST_SOURCE_DIR) / "tests/data/bench-formats";

json::value read_json(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
}

std::string joined(const std::vector<std::string>& lines) {
    std::string all;
    for (const auto& l : lines) all += l + "\n";
    return all;
}

json::object summary(double median, double min, double max, int n, bool with_ci) {
    json::object s{{"n", n}, {"median", median}, {"min", min}, {"max", max}, {"ci95_low", nullptr}, {"ci95_high", nullptr}};
    if (with_ci) {
        s["ci95_low"] = median - 0.1;
        s["ci95_high"] = median + 0.1;
    }
    return s;
}

// Two plugins; keepalive.p99_ms is lower-is-better in ms, keepalive.rps
// higher-is-better without a unit, idle.mem_mean_mib undeclared, and one
// metric too long for a Bencher measure.
json::object results() {
    stand::rundir::TableRow p99{"p99 (ms)", "keepalive.p99_ms", "%.2f", "", "lower", "ms"};
    stand::rundir::TableRow rps{"requests/s", "keepalive.rps", "%.0f", "", "higher", ""};
    stand::rundir::TableRow mem{"idle memory (MiB)", "idle.mem_mean_mib", "%.1f", "", "", ""};
    const std::vector<stand::rundir::RunTable> tables{{"Load", "rows", {p99, rps}}, {"Idle", "rows", {mem}}};
    const std::string long_metric = "capacity_with_a_long_step_name.level12.client_waiting_pct_of_threads";
    json::object nginx{{"keepalive.p99_ms", summary(1.5, 1.25, 2.0, 5, true)},
                       {"keepalive.rps", summary(20000, 19000, 21000, 5, false)},
                       {"idle.mem_mean_mib", summary(3.5, 3.5, 3.5, 5, false)},
                       {long_metric, summary(1, 1, 1, 5, false)}};
    json::object caddy{{"keepalive.p99_ms", summary(2.5, 2.5, 2.5, 1, false)}};
    return {{"schema_version", 1},
            {"run", {{"scenario_name", "t"}, {"tables", stand::rundir::tables_to_json(tables)}}},
            {"summary", {{"nginx", nginx}, {"caddy", caddy}}}};
}

// JSON Schema's type names: an integer and a double are both a number.
std::string json_type(const json::value& v) {
    if (v.is_number()) return "number";
    if (v.is_string()) return "string";
    if (v.is_bool()) return "boolean";
    if (v.is_null()) return "null";
    return v.is_array() ? "array" : "object";
}

// key -> the JSON type every published example entry gives it, and the keys every entry has.
struct ExampleShape {
    std::map<std::string, std::string> types;
    std::set<std::string> always;
};

ExampleShape example_shape() {
    ExampleShape shape;
    std::map<std::string, std::size_t> seen;
    std::size_t entries = 0;
    for (const char* file : {"customSmallerIsBetter_output.json", "customBiggerIsBetter_output.json"}) {
        const json::value examples = read_json(kFormats / file);
        for (const auto& e : examples.as_array()) {
            ++entries;
            for (const auto& [k, v] : e.as_object()) {
                shape.types.emplace(std::string(k), json_type(v));  // the first example's type; the rest must agree
                CHECK_MESSAGE(shape.types.at(std::string(k)) == json_type(v), k);
                ++seen[std::string(k)];
            }
        }
    }
    for (const auto& [k, n] : seen)
        if (n == entries) shape.always.insert(k);
    return shape;
}

// Each entry has the examples' always-present keys, no key they lack, and their JSON types.
void check_like_examples(const json::value& doc) {
    const ExampleShape shape = example_shape();
    REQUIRE(shape.always == std::set<std::string>{"name", "unit", "value"});
    REQUIRE(doc.is_array());
    for (const auto& e : doc.as_array()) {
        REQUIRE(e.is_object());
        for (const auto& k : shape.always) CHECK_MESSAGE(e.as_object().contains(k), k);
        for (const auto& [k, v] : e.as_object()) {
            REQUIRE_MESSAGE(shape.types.contains(std::string(k)), k);
            CHECK_MESSAGE(shape.types.at(std::string(k)) == json_type(v), k);
        }
    }
}

const json::object* entry_named(const json::value& doc, const std::string& name) {
    for (const auto& e : doc.as_array())
        if (e.as_object().at("name").as_string() == name) return &e.as_object();
    return nullptr;
}

}  // namespace

TEST_CASE("bench export: Bencher Metric Format as Bencher's published schema declares it") {
    const json::object schema = read_json(kFormats / "bmf.json").as_object();
    CHECK(stand::test::json_schema_problems(read_json(kFormats / "bmf-example.json"), schema).empty());

    const auto out = export_bench_json(results(), BenchFormat::bmf);
    const auto problems = stand::test::json_schema_problems(out.document, schema);
    CHECK_MESSAGE(problems.empty(), joined(problems));
    const auto& p99 = out.document.at("nginx").at("keepalive.p99_ms").as_object();
    CHECK(p99.at("value").as_double() == 1.5);
    CHECK(p99.at("lower_value").as_double() == 1.25);
    CHECK(p99.at("upper_value").as_double() == 2.0);
    CHECK(out.document.at("nginx").as_object().contains("idle.mem_mean_mib"));  // no direction needed
    CHECK(out.document.at("caddy").at("keepalive.p99_ms").at("value").as_double() == 2.5);
    CHECK(out.values == 4);  // nginx's three short metrics and caddy's one
    REQUIRE(out.left_out.size() == 1);
    CHECK(out.left_out[0] ==
          "longer than the 64 characters Bencher allows a measure: "
          "capacity_with_a_long_step_name.level12.client_waiting_pct_of_threads");
}

TEST_CASE("bench export: customSmallerIsBetter holds only the metrics declared lower-is-better") {
    const auto out = export_bench_json(results(), BenchFormat::smaller_is_better);
    check_like_examples(out.document);
    REQUIRE(out.document.as_array().size() == 2);
    CHECK(out.values == 2);
    const json::object* nginx = entry_named(out.document, "nginx/keepalive.p99_ms");
    REQUIRE(nginx != nullptr);
    CHECK(nginx->at("unit") == "ms");
    CHECK(nginx->at("value").as_double() == 1.5);
    CHECK(nginx->at("range") == "min 1.25, max 2.00");
    CHECK(nginx->at("extra") == "median of 5 repetitions; 95 % bootstrap interval of the median 1.40 to 1.60");
    const json::object* caddy = entry_named(out.document, "caddy/keepalive.p99_ms");
    REQUIRE(caddy != nullptr);
    CHECK_FALSE(caddy->contains("range"));  // one repetition: no range
    CHECK(caddy->at("extra") == "median of 1 repetition");
    const std::string left = joined(out.left_out);
    CHECK(left.find("higher is better (customBiggerIsBetter): keepalive.rps\n") != std::string::npos);
    CHECK(left.find("no direction declared (a table row's \"better\" in the scenario): "
                    "capacity_with_a_long_step_name.level12.client_waiting_pct_of_threads, idle.mem_mean_mib\n") !=
          std::string::npos);
}

TEST_CASE("bench export: customBiggerIsBetter holds the higher-is-better ones, unit empty when undeclared") {
    const auto out = export_bench_json(results(), BenchFormat::bigger_is_better);
    check_like_examples(out.document);
    REQUIRE(out.document.as_array().size() == 1);
    const json::object* rps = entry_named(out.document, "nginx/keepalive.rps");
    REQUIRE(rps != nullptr);
    CHECK(rps->at("unit") == "");
    CHECK(rps->at("range") == "min 19000, max 21000");
    CHECK(joined(out.left_out).find("lower is better (customSmallerIsBetter): keepalive.p99_ms\n") != std::string::npos);
}

TEST_CASE("bench export: format names") {
    CHECK(stand::report::bench_format_named("bmf") == BenchFormat::bmf);
    CHECK(stand::report::bench_format_named("customSmallerIsBetter") == BenchFormat::smaller_is_better);
    CHECK(stand::report::bench_format_named("customBiggerIsBetter") == BenchFormat::bigger_is_better);
    CHECK_FALSE(stand::report::bench_format_named("customsmallerisbetter").has_value());
}

TEST_CASE("bench export: a table row's better and unit, kept in run.json, refused when they disagree") {
    const auto scenario = [](const std::string& rows) {
        return R"({"schema_version": 1, "name": "t", "plugins": ["nginx"], "phases": [{"name": "p", "steps": [
            {"step": "load", "name": "l"}]}], "tables": [{"title": "T", "rows": [)" + rows + "]}]}";
    };
    const std::string ok = scenario(R"({"label": "a", "metric": "l.p99_ms", "better": "lower", "unit": "ms"},
                                      {"label": "b", "metric": "l.p99_ms"})");
    CHECK(stand::test::error_of(ok) == "");
    const auto tables = stand::scenario::parse_scenario_text(ok, "t.json").tables;
    const auto back = stand::rundir::tables_of_run(json::object{{"tables", stand::rundir::tables_to_json(tables)}});
    CHECK(back[0].rows[0].better == "lower");
    CHECK(back[0].rows[0].unit == "ms");
    CHECK(back[0].rows[1].better.empty());
    CHECK(stand::test::error_of(scenario(R"({"label": "a", "metric": "l.rps", "better": "up"})"))
              .find("$.tables[0].rows[0].better: expected \"lower\" or \"higher\"") != std::string::npos);
    const std::string clash = stand::test::error_of(
        scenario(R"({"label": "a", "metric": "l.rps", "better": "higher"}, {"label": "b", "metric": "l.rps", "better": "lower"})"));
    CHECK(clash.find("$.tables[0].rows[1].better: expected \"higher\", as an earlier row says for l.rps") != std::string::npos);
    CHECK(stand::test::error_of(scenario(R"({"label": "a", "metric": "l.rps", "unit": ""})")).find("rows[0].unit") !=
          std::string::npos);
}
