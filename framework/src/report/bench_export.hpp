// `stand report RUN_DIR --bench-json FORMAT`: a run's medians per plugin and
// metric (results.json's summary) as the JSON that continuous-benchmarking
// services take (docs/run-files.md, "Results for benchmark trackers"):
// - bmf: Bencher Metric Format, {"<plugin>": {"<metric>": {"value": median,
//   "lower_value": min, "upper_value": max}}} (https://bencher.dev/bmf.json);
// - customSmallerIsBetter / customBiggerIsBetter: github-action-benchmark's
//   custom tools, [{"name": "<plugin>/<metric>", "unit", "value": median,
//   "range": "min A, max B", "extra"}], one direction per file, so only the
//   metrics a table row of the scenario declares "better": "lower" (or
//   "higher") for. Nothing is guessed: what is left out is said, and why.
#pragma once

#include <boost/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stand::report {

enum class BenchFormat { bmf, smaller_is_better, bigger_is_better };

inline constexpr const char* kBenchFormatNames = "bmf, customSmallerIsBetter or customBiggerIsBetter";

// nullopt for a name not in kBenchFormatNames.
std::optional<BenchFormat> bench_format_named(std::string_view name);

struct BenchExport {
    boost::json::value document;
    std::size_t values = 0;              // entries written (a plugin's metric each)
    std::vector<std::string> left_out;   // "<why>: metric, metric, ..."
};

// `results`: results.json as rundir::RunDirectory::read_results() gives it.
BenchExport export_bench_json(const boost::json::object& results, BenchFormat format);

}  // namespace stand::report
