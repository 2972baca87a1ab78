#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "report/compare_gates.hpp"
#include "report/compare_runs.hpp"
#include "text/finite_json.hpp"
#include "text/text_file.hpp"
#include "report/run_report.hpp"
#include "rundir/run_directory.hpp"


#include <algorithm>
#include <iostream>

namespace stand::cli {
namespace {

const char* kHelp = R"(usage: stand compare RUN_A RUN_B [--json] [--plugin LABEL] [--metric NAME]
                     [--fail-if 'METRIC > +5%']... [--junit FILE]

Compares two run directories (written by `stand run`): for every plugin and
metric both measured, the median (min-max) and n of each, the ratio of the
medians B/A with a bootstrap 95 % interval, and the p value of a two-sided
Mann-Whitney U test. Only repetitions with status "ok" count. Rows with
fewer than 5 repetitions on a side are marked: their p cannot be small.

  --json           machine-readable output (schema_version 1) instead of Markdown
  --plugin LABEL   only this plugin (repeatable)
  --metric NAME    only this metric (repeatable)
  --fail-if GATE   a regression gate, RUN_A the baseline and RUN_B the new run
                   (repeatable): 'PATTERN > +N%' fails when B's median is above A's
                   by more than N %, 'PATTERN < -N%' when below by more than N %;
                   without % the change is absolute, in the metric's unit
                   ('*.error_pct > +0.5'). PATTERN matches metric names ('*' and '?'
                   as in a shell) for every plugin both runs measured. A gate fails
                   only when the bootstrap 95 % interval of the change lies wholly
                   beyond N; with fewer than 6 repetitions on a side, or a change
                   beyond a double (1e300 / 1e-300), it cannot decide, says so
                   and fails too
  --junit FILE     write the gates as JUnit XML: one test case per gate, plugin and
                   metric (failure: failed, error: undecided)

Exit: 0 compared (and every gate passed); 99 a gate failed or could not decide;
2 a directory is not a run directory, nothing matched, or a bad --fail-if.
)";

std::vector<report::PerRepRow> rows_of_run(const std::string& dir) {
    rundir::RunDirectory run(dir);
    if (!run.read_run_info()) throw UsageError(dir + ": no run.json (not a stand run directory)");
    return report::rows_of_reps(run.read_all_reps());
}

template <typename Keep>
void filter(std::vector<report::PerRepRow>& rows, Keep keep) {
    std::erase_if(rows, [&](const report::PerRepRow& r) { return !keep(r); });
}

report::Gate gate_of(const std::string& text) {
    try {
        return report::parse_gate(text);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

bool listed(const std::vector<std::string>& wanted, const std::string& value) {
    return wanted.empty() || std::find(wanted.begin(), wanted.end(), value) != wanted.end();
}

}  // namespace

int run_compare(const std::vector<std::string>& argv) {
    Args args("compare", argv,
              {{"help"}, {"json"}, {"plugin", true, true}, {"metric", true, true}, {"fail-if", true, true}, {"junit", true}});
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    args.expect_positionals(2, 2, "two run directories: RUN_A RUN_B");
    std::vector<report::Gate> gates;
    for (const auto& g : args.values("fail-if")) gates.push_back(gate_of(g));
    if (args.value("junit") && gates.empty()) throw UsageError("--junit goes with --fail-if (the gates are its test cases)");
    const auto& a_dir = args.positionals()[0];
    const auto& b_dir = args.positionals()[1];
    if (const auto junit = args.value("junit"))
        for (const auto& dir : {a_dir, b_dir}) rundir::RunDirectory(dir).refuse_as_output("--junit", *junit);
    auto a = rows_of_run(a_dir), b = rows_of_run(b_dir);
    const auto plugins = args.values("plugin"), metrics = args.values("metric");
    auto keep = [&](const report::PerRepRow& r) { return listed(plugins, r.plugin) && listed(metrics, r.metric); };
    filter(a, keep);
    filter(b, keep);
    auto c = report::compare_rows(a, b);
    if (c.rows.empty())
        throw UsageError("no plugin and metric with finished repetitions in both " + a_dir + " and " + b_dir +
                         (plugins.empty() && metrics.empty() ? "" : " (after --plugin/--metric)"));
    std::vector<report::GateOutcome> outcomes;
    try {
        outcomes = report::evaluate_gates(gates, a, b);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (args.flag("json")) {
        auto j = report::comparison_json(c, a_dir, b_dir);
        if (!gates.empty()) j["gates"] = report::gates_json(outcomes);
        std::cout << text::finite_json_text(std::move(j)) << "\n";
    } else {
        std::cout << report::comparison_markdown(c, a_dir, b_dir);
        if (!gates.empty()) std::cout << report::gates_markdown(outcomes);
    }
    if (const auto junit = args.value("junit"))
        text::write_text_file(*junit, report::gates_junit(outcomes, "stand compare " + a_dir + " " + b_dir));
    for (const auto& m : c.rows)
        if (m.few_reps) {
            std::cerr << "stand: compare: warning: fewer than " << report::kCompareMinReps
                      << " repetitions on a side for some rows; their p values cannot be small\n";
            break;
        }
    return report::gates_failing(outcomes) ? kExitThresholds : kExitOk;
}

}  // namespace stand::cli
