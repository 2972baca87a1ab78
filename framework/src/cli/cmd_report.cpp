#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/threshold_exit.hpp"
#include "report/bench_export.hpp"
#include "report/per_rep_csv.hpp"
#include "report/report_error.hpp"
#include "report/run_report.hpp"
#include "report/table.hpp"
#include "report/table_spec.hpp"
#include "rundir/run_directory.hpp"
#include "rundir/run_files.hpp"
#include "rundir/run_lock.hpp"
#include "text/pretty_json.hpp"
#include "text/text_file.hpp"

#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

namespace stand::cli {
namespace {

const char* kHelp = R"(usage: stand report RUN_DIR [--junit FILE]
       stand report RUN_DIR --bench-json FORMAT [--output FILE]
       stand report --import-per-rep FILE --table-spec SPEC [--output FILE]

With RUN_DIR: regenerates results.json, per_rep.csv, summary.md and
report.html of a run directory from its raw files (run.json, reps/*.json,
samples/*.csv), e.g. after a newer stand or an interrupted run. The
scenario's thresholds are evaluated again: --junit FILE writes them as JUnit
XML, and the exit is 99 when one is crossed or could not be evaluated, as
`stand run`'s.

With RUN_DIR --bench-json FORMAT: writes the medians of its results.json per
plugin and metric as the JSON a benchmark tracker takes, changing nothing
(docs/run-files.md, "Results for benchmark trackers"):

  bmf                    Bencher Metric Format: {plugin: {metric: {value:
                         median, lower_value: min, upper_value: max}}}, every metric
  customSmallerIsBetter  github-action-benchmark's custom tool: [{name:
  customBiggerIsBetter   "plugin/metric", unit, value: median, range, extra}], only
                         the metrics a table row of the scenario declares
                         "better": "lower" (or "higher") for, with its "unit"

What is left out, and why, goes to standard error.

With --import-per-rep: renders a Markdown table (median (min-max) per plugin
and metric) from per-repetition results.

  --import-per-rep FILE  per-repetition CSV with the header plugin,rep,metric,value
                         (the seed harness's panel,rep,metric,value is accepted);
                         fields quoted as in RFC 4180 when they hold commas
  --table-spec SPEC      table spec JSON: the rows (label, metric, printf format),
                         the column order, which reps count toward n=, the n/a
                         text, text before and after the table; see
                         scenarios/README.md, "Table specs"
  --output FILE          write the Markdown (or the --bench-json) to FILE instead of
                         standard output

Exit: 0 ok; 99 (RUN_DIR) a threshold crossed or not evaluated; 2 not a run directory,
no results.json or no finished repetition for --bench-json, an --output or --junit that is
a file of the run, standard output not written (a full disk), bad command line,
unreadable file, bad CSV (the message names
FILE:LINE) or bad spec (the message names SPEC and the JSON path, e.g.
$.rows[3].format, also when a row's metric has no values in FILE).
)";

// `report RUN_DIR --bench-json FORMAT [--output FILE]`
int export_bench_json(const std::filesystem::path& dir, const std::string& format_name,
                      const std::optional<std::string>& output) {
    const auto format = report::bench_format_named(format_name);
    if (!format)
        throw UsageError("--bench-json " + format_name + ": expected " + report::kBenchFormatNames);
    const rundir::RunDirectory run(dir);
    if (output) run.refuse_as_output("--output", *output);
    const auto results = run.read_results();
    if (!results)
        throw UsageError(dir.string() + ": no results.json (not a stand run directory, or `stand report " + dir.string() +
                         "` has not run)");
    if (results->at(rundir::results_key::kSummary).as_object().empty())
        throw UsageError(dir.string() + ": no repetition finished, so there is no median to export (its repetitions: " +
                         dir.string() + "/summary.md)");
    report::BenchExport exported;
    try {
        exported = report::export_bench_json(*results, *format);
    } catch (const report::ReportError& e) {
        std::cerr << "stand: report: " << e.what() << "\n";
        return kExitUsage;
    }
    std::ostringstream json;
    text::write_pretty_json(json, exported.document);
    json << "\n";
    if (output) text::write_text_file(*output, json.str());
    else std::cout << json.str() << std::flush;
    std::cerr << "stand: report: " << exported.values << " values as " << format_name
              << (output ? " in " + *output : std::string()) << "\n";
    for (const auto& line : exported.left_out) std::cerr << "stand: report: left out, " << line << "\n";
    return kExitOk;
}

}  // namespace

int run_report(const std::vector<std::string>& argv) {
    Args args("report", argv, {{"help"}, {"import-per-rep", true}, {"table-spec", true}, {"output", true},
                               {"bench-json", true}, {"junit", true}});
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    args.expect_positionals(0, 1, "RUN_DIR, or --import-per-rep FILE --table-spec SPEC");
    if (!args.positionals().empty()) {
        if (args.value("import-per-rep") || args.value("table-spec"))
            throw UsageError("'report RUN_DIR' takes no --import-per-rep or --table-spec");
        if (auto format = args.value("bench-json")) return export_bench_json(args.positionals()[0], *format, args.value("output"));
        if (args.value("output")) throw UsageError("'report RUN_DIR' takes --output only with --bench-json");
        const std::filesystem::path dir = args.positionals()[0];
        if (const auto junit = args.value("junit")) rundir::RunDirectory(dir).refuse_as_output("--junit", *junit);
        const auto lock = rundir::RunLock::for_existing_run(dir);
        auto files = report::write_run_report(dir);
        for (const auto& f : {files.results_json, files.per_rep_csv, files.summary_md, files.report_html})
            std::cout << f.string() << "\n";
        if (const auto junit = args.value("junit")) check_junit_file(*junit, files.thresholds.size());
        return threshold_code(files.thresholds, args.value("junit"), "stand run " + dir.string());
    }
    if (args.value("bench-json")) throw UsageError("--bench-json needs RUN_DIR");
    const auto csv = args.value("import-per-rep");
    const auto spec_file = args.value("table-spec");
    if (args.value("junit")) throw UsageError("--junit goes with 'report RUN_DIR'");
    if (!csv) throw UsageError("'report' needs --import-per-rep FILE (see stand report --help)");
    if (!spec_file) throw UsageError("'report' needs --table-spec SPEC (see stand report --help)");
    try {
        const auto spec = report::load_table_spec(*spec_file);
        const auto rows = report::read_per_rep_csv(*csv);
        const std::string markdown = report::render_markdown(rows, spec, *csv);
        if (auto out = args.value("output")) text::write_text_file(*out, markdown);
        else std::cout << markdown << std::flush;
    } catch (const report::ReportError& e) {
        std::cerr << "stand: report: " << e.what() << "\n";
        return kExitUsage;
    } catch (const text::TextFileError& e) {
        std::cerr << "stand: report: " << e.what() << "\n";
        return kExitUsage;
    }
    return kExitOk;
}

}  // namespace stand::cli
