// report/: table specs (parsing, errors with JSON paths) and table building
// from per-rep rows: n= rules, missing values, column order, templates.
#include "report/report_error.hpp"
#include "report/table.hpp"
#include "report/table_spec.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace rp = stand::report;

namespace {

std::string spec_error(const std::string& json) {
    try {
        rp::parse_table_spec_text(json, "s.json");
    } catch (const rp::ReportError& e) {
        return e.what();
    }
    return "";
}

std::string render(const std::vector<rp::PerRepRow>& rows, const std::string& json) {
    return rp::render_markdown(rows, rp::parse_table_spec_text(json, "s.json"), "rows.csv");
}

std::string render_error(const std::vector<rp::PerRepRow>& rows, const std::string& json) {
    try {
        render(rows, json);
    } catch (const rp::ReportError& e) {
        return e.what();
    }
    return "";
}

// Two plugins; b's rep 2 failed after phase A (no "ok", no "lat").
const std::vector<rp::PerRepRow> kRows{
    {"b", 1, "ok", 1},    {"b", 1, "mem", 10}, {"b", 1, "lat", 1.25},
    {"b", 2, "ok", 0},    {"b", 2, "mem", 14},
    {"b", 3, "ok", 1},    {"b", 3, "mem", 11}, {"b", 3, "lat", 1.75},
    {"a", 1, "ok", 1},    {"a", 1, "mem", 5},  {"a", 1, "lat", 0.5},
    {"a", 2, "ok", 1},    {"a", 2, "mem", 6},  {"a", 2, "lat", 0.25},
};

}  // namespace

TEST_CASE("table: spec errors name the file and the JSON path") {
    CHECK(spec_error("{\"rows\": [}") .find("s.json:1:") == 0);
    CHECK(spec_error("[]") == "s.json: $: expected an object");
    CHECK(spec_error("{}") == "s.json: $: missing key 'rows'");
    CHECK(spec_error("{\"rows\": []}") == "s.json: $.rows: expected a non-empty array of rows");
    CHECK(spec_error("{\"row\": 1, \"rows\": []}").find("s.json: $: unknown key 'row' (known: description, ") == 0);
    const std::string row0 = R"({"label": "L", "metric": "m", "format": "%.1f"})";
    CHECK(spec_error(R"({"rows": [)" + row0 + R"(, {"label": "L", "metric": "m", "fromat": "%.1f"}]})")
              .find("s.json: $.rows[1]: unknown key 'fromat'") == 0);
    CHECK(spec_error(R"({"rows": [{"label": "L", "metric": "m"}]})") == "s.json: $.rows[0]: missing key 'format'");
    CHECK(spec_error(R"({"rows": [{"label": "L", "metric": "m", "format": "%d"}]})")
              .find("s.json: $.rows[0].format: '%d' is not a printf format for a number") == 0);
    CHECK(spec_error(R"({"rows": [{"label": "L", "metric": 3, "format": "%f"}]})") ==
          "s.json: $.rows[0].metric: expected a string");
    CHECK(spec_error(R"({"rows": [{"label": "L", "metric": "m", "format": "%f", "optional": "yes"}]})") ==
          "s.json: $.rows[0].optional: expected true or false");
    CHECK(spec_error(R"({"columns": ["a", "a"], "rows": [)" + row0 + "]}") ==
          "s.json: $.columns[1]: plugin 'a' listed twice");
    CHECK(spec_error(R"({"columns": "random", "rows": [)" + row0 + "]}").find("s.json: $.columns: expected") == 0);
    CHECK(spec_error(R"({"n_counts": {"with_metric": "ok", "x": 1}, "rows": [)" + row0 + "]}") ==
          "s.json: $.n_counts: expected exactly one of with_metric, with_nonzero_metric, any_of");
    CHECK(spec_error(R"({"values_from": {"any_of": ["all", {"with": "ok"}]}, "rows": [)" + row0 + "]}")
              .find("s.json: $.values_from.any_of[1]: unknown key 'with'") == 0);
    CHECK(spec_error(R"({"cell": "{median} [{p95}]", "rows": [)" + row0 + "]}")
              .find("s.json: $.cell: unknown placeholder {p95}") == 0);
    CHECK(spec_error(R"({"column_header": "{plugin", "rows": [)" + row0 + "]}")
              .find("s.json: $.column_header: unmatched '{'") == 0);
}

TEST_CASE("table: default spec renders median (min-max), n/a and first-seen columns") {
    const auto md = render(kRows, R"json({"rows": [
        {"label": "Memory (MiB)", "metric": "mem", "format": "%.0f"},
        {"label": "Latency (ms)", "metric": "lat", "format": "%.2f"},
        {"label": "Never measured", "metric": "nothing", "format": "%.1f", "optional": true}]})json");
    // b: mem {10, 14, 11} -> 11 (10-14); lat {1.25, 1.75} -> median (1.25 + 1.75) / 2 = 1.5.
    // a: mem {5, 6} -> 5.5 printed "%.0f" -> "6" (5.5 rounds half to even), lat {0.5, 0.25} -> 0.375 -> "0.38"
    CHECK(md ==
          "| Metric | b (n=3) | a (n=2) |\n"
          "|---|---|---|\n"
          "| Memory (MiB) | 11 (10-14) | 6 (5-6) |\n"
          "| Latency (ms) | 1.50 (1.25-1.75) | 0.38 (0.25-0.50) |\n"
          "| Never measured | n/a | n/a |\n");
}

TEST_CASE("table: n= and value rules reproduce the seed harness's onebox quirk") {
    // aggregate_box.py: values from every included run, n= only from ok runs.
    const auto md = render(kRows, R"({
        "columns": "sorted",
        "n_counts": {"with_nonzero_metric": "ok"},
        "missing": "-",
        "rows": [{"label": "mem", "metric": "mem", "format": "%.0f"},
                 {"label": "C anon", "metric": "c_anon", "format": "%.0f", "missing_as": 0}]})");
    CHECK(md ==
          "| Metric | a (n=2) | b (n=2) |\n"
          "|---|---|---|\n"
          "| mem | 6 (5-6) | 11 (10-14) |\n"
          "| C anon | 0 (0-0) | 0 (0-0) |\n");

    // Only completed runs (those with "lat") in the values too; n= over every rep.
    const auto completed = render(kRows, R"({
        "values_from": {"any_of": [{"with_metric": "lat"}, {"with_metric": "never"}]},
        "rows": [{"label": "mem", "metric": "mem", "format": "%.1f", "optional": false}]})");
    CHECK(completed ==
          "| Metric | b (n=3) | a (n=2) |\n"
          "|---|---|---|\n"
          "| mem | 10.5 (10.0-11.0) | 5.5 (5.0-6.0) |\n");
}

TEST_CASE("table: declared columns, templates, text around the table and escaping") {
    const auto md = render(kRows, R"({
        "columns": ["a"],
        "metric_header": "What",
        "column_header": "{plugin} [{n} reps]",
        "cell": "{median} | n={n} | CI {ci_low}..{ci_high} {{x}}",
        "text_before": "# Title\n\n",
        "text_after": "\nFooter\n",
        "rows": [{"label": "a|b", "metric": "mem", "format": "%.1f"}]})");
    // a: mem {5, 6}; the bootstrap interval of two values is their range (see stats tests).
    CHECK(md ==
          "# Title\n\n"
          "| What | a [2 reps] |\n"
          "|---|---|\n"
          "| a\\|b | 5.5 \\| n=2 \\| CI 5.0..6.0 {x} |\n"
          "\nFooter\n");

    // One value: no interval, the missing text stands in.
    const std::vector<rp::PerRepRow> one{{"p", 1, "m", 2}};
    CHECK(render(one, R"({"cell": "{median} [{ci_low}, {ci_high}]", "rows": [{"label": "m", "metric": "m", "format": "%.0f"}]})")
              .find("| 2 [n/a, n/a] |") != std::string::npos);
}

TEST_CASE("table: rows and columns without data are errors naming the spec path and the input") {
    CHECK(render_error(kRows, R"({"rows": [{"label": "ok", "metric": "mem", "format": "%f"},
                                           {"label": "typo", "metric": "mme", "format": "%f"}]})") ==
          "s.json: $.rows[1].metric: metric 'mme' has no values in rows.csv (set \"optional\": true to print n/a)");
    CHECK(render_error(kRows, R"({"columns": ["a", "c"], "rows": [{"label": "m", "metric": "mem", "format": "%f"}]})") ==
          "s.json: $.columns[1]: plugin 'c' has no rows in rows.csv");
    CHECK(render_error({}, R"({"rows": [{"label": "m", "metric": "mem", "format": "%f"}]})") ==
          "rows.csv: no rows to tabulate");
}
