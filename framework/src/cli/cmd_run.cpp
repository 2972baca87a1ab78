#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/metrics_listen.hpp"
#include "cli/run_on_hosts.hpp"
#include "cli/scenario_run.hpp"
#include "cli/threshold_exit.hpp"
#include "fleetrun/controller_load.hpp"
#include "text/text_file.hpp"
#include "loader/schema_check.hpp"
#include "report/run_report.hpp"
#include "scenario/engine.hpp"
#include "scenario/plugin_overrides.hpp"
#include "scenario/probe_params_check.hpp"
#include "scenario/run_plan.hpp"
#include "rundir/run_directory.hpp"
#include "rundir/run_lock.hpp"
#include "scenario/scenario_parser.hpp"
#include "scenario/steps/step_listing.hpp"
#include "text/secrets.hpp"
#include "text/temp_dir.hpp"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <csignal>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace stand::cli {
namespace {

const char* kHelp = R"(usage: stand run SCENARIO [options]
       stand run --resume RUN_DIR [options]
       stand run --check SCENARIO [--plugin ...] [--param ...] [--host ...]
       stand run --list-steps [--json | --markdown]

Runs a scenario file (scenarios/README.md): every repetition of every plugin
in a fresh box and a fresh plugin worker process. Results are written after
every step; Ctrl-C stops cleanly and keeps what was measured, and --resume
finishes an interrupted run, skipping the repetitions that finished.

  --plugin [LABEL:]ID[=CONFIG]
                        run these plugins instead of the scenario's (repeatable;
                        CONFIG is JSON or @file.json; LABEL names its column and
                        repetitions, e.g. mistgate-double:mistgate, and lets one
                        plugin run twice with two configs)
  --param NAME=VALUE    override a parameter the scenario declares in "params"
                        (repeatable; VALUE is JSON, else a string)
  --param-file FILE     the same from a JSON object {"NAME": VALUE, ...} (--param wins)
  --run-dir DIR         where to write (default: runs/<scenario>-<time>)
  --resume RUN_DIR      finish an earlier run in RUN_DIR
  --check               validate everything a run would (the scenario, its params, the
                        plugins and the interfaces each step calls on them, every
                        probe step's job and params, pins against this
                        machine, and with hosts each host's stand) and exit 0 or 2
                        without measuring, as `nginx -t` does
  --allow-drift         measure although the box's effective settings differ from the plan
  --junit FILE          write the scenario's thresholds as JUnit XML to FILE when the run
                        ends: one test case per threshold and plugin (failure: crossed,
                        error: not evaluated), so a CI system shows them as tests
  --plugin-path DIR     extra plugin directory (repeatable)
  --host NAME=ssh://USER@ADDRESS[:PORT]
                        run the whole scenario on this host (repeatable; adds to or
                        replaces by name the scenario's "hosts"): every host at once,
                        each with its pushed stand (stand fleet push), one report with
                        a column per host; the host runs go on if one fails. A load
                        step "from": "controller" is sent from this machine to the
                        host's address (the box stays on the host)
  --generator NAME=ssh://USER@ADDRESS[:PORT]
                        replace by name a host of the scenario's "generators" (those a
                        load step's "generators" send its load from; checked before the
                        run as --host is, each with its pushed stand)
  --ssh-config FILE     ssh -F FILE for the hosts and generators
  --accept-new-host-key accept a host key not yet in known_hosts
  --fleet-host NAME     (set by the controller on each host) run this host's part
                        alone, ignoring the scenario's "hosts"; load steps "from":
                        "controller" ask the controller on stdout and stdin
  --list-steps          the step kinds: keys, defaults, metrics, timeouts (--json: as JSON;
                        --markdown: as docs/steps.md)
  --metrics-listen HOST:PORT
                        serve the run's live figures for Prometheus at
                        http://HOST:PORT/metrics while it runs (OpenMetrics text;
                        docs/live-metrics.md): repetitions, the step, the load's
                        rates, counts and latency, the box's CPU and memory. Port 0:
                        a free port, printed on stderr as "stand: metrics: URL"
  --allow-remote-metrics
                        allow a --metrics-listen address other than loopback

Exit: 0 all repetitions ok and every threshold passed, 1 some repetition failed
(or the run stopped), 2 bad scenario or arguments, 3 a plugin was refused,
99 a threshold was crossed or could not be evaluated (scenarios/README.md,
"Thresholds"), 130 interrupted (resume with --resume).
)";

// The scenario of an earlier run as it started: its text, params and plugin
// configs kept in RUN_DIR, never the scenario file as it is today.
scenario::Scenario resumed_scenario(const Args& args, const std::string& resume) {
    args.expect_positionals(0, 0, "no scenario with --resume (it is in RUN_DIR)");
    for (const char* option : {"param", "param-file", "plugin", "run-dir"})
        if (!args.values(option).empty())
            throw UsageError(std::string("--resume runs the scenario with the params and plugins it started with; --") +
                             option + " is not taken with it (start a new run to change them)");
    rundir::RunDirectory dir(resume);
    auto info = dir.read_run_info();
    if (!info) throw UsageError("--resume " + resume + ": no run.json there");
    // The params and plugin configs as given (run.json has their secrets redacted).
    auto given = dir.read_secrets();
    if (!given) throw UsageError("--resume " + resume + ": no secrets.json there (the plugin configs as given)");
    const auto* text = given->if_contains("scenario_text");
    const auto* file = info->if_contains("scenario_file");
    if (!text || !text->is_string() || !file || !file->is_string())
        throw UsageError("--resume " + resume +
                         ": the run does not keep its scenario text (written by an older stand); run it again");
    scenario::ParamOverrides params;  // the values the run started with
    if (auto* p = given->if_contains("params"); p && p->is_object())
        for (const auto& [k, v] : p->as_object()) params[std::string(k)] = boost::json::serialize(v);
    auto scen = scenario::parse_scenario_text(text->get_string(), std::string(file->get_string()), params);
    scen.plugins.clear();
    for (const auto& p : given->at("plugins").as_array())
        scen.plugins.push_back({std::string(p.at("id").as_string()), p.at("config").as_object(),
                                std::string(p.at("label").as_string())});
    return scen;
}

// --param-file FILE: {"NAME": VALUE}, each VALUE as --param NAME=VALUE gives it.
scenario::ParamOverrides params_of_file(const std::string& file) {
    std::string text;
    try {
        text = text::read_input_file(file);
    } catch (const text::TextFileError& e) {
        throw UsageError(std::string("--param-file: ") + e.what());
    }
    boost::json::error_code ec;
    const auto doc = boost::json::parse(text, ec);
    if (ec || !doc.is_object())
        throw UsageError("--param-file " + file + ": expected a JSON object {\"NAME\": VALUE, ...}" +
                         (ec ? " (" + ec.message() + ")" : ""));
    scenario::ParamOverrides params;
    for (const auto& [k, v] : doc.as_object())
        params[std::string(k)] = v.is_string() ? std::string(v.as_string()) : boost::json::serialize(v);
    return params;
}

// The scenario file named on the command line, with --param-file, --param and --plugin applied.
scenario::Scenario scenario_from_args(const Args& args) {
    args.expect_positionals(1, 1, "a scenario file (see scenarios/)");
    scenario::ParamOverrides params;
    if (auto file = args.value("param-file")) params = params_of_file(*file);
    for (const auto& p : args.values("param")) {
        auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0) throw UsageError("--param " + p + ": expected NAME=VALUE");
        params[p.substr(0, eq)] = p.substr(eq + 1);
    }
    auto scen = scenario::parse_scenario_file(args.positionals()[0], params);
    if (auto overrides = args.values("plugin"); !overrides.empty())
        scen.plugins = scenario::parse_plugin_overrides(overrides);
    return scen;
}

// --check: what a run would refuse, refused now; nothing measured.
int checked_scenario(const Args& args, const scenario::Scenario& scen, const loader::PluginSearch& search,
                     const std::vector<fleet::SshTarget>& hosts) {
    try {
        resolve_plugins(args, scen, search, true);
    } catch (const loader::LoadError& e) {
        std::cerr << "stand: refused " << text::secrets().scrub(e.what()) << "\n";
        return kExitUsage;
    } catch (const PluginConfigError& e) {
        std::cerr << "stand: refused " << text::secrets().scrub(e.what()) << "\n";
        return kExitUsage;
    }
    check_probe_steps(scen, search);
    const auto plan = scenario::make_run_plan(scen);
    std::size_t steps = 0;
    for (const auto& phase : scen.phases) steps += phase.steps.size();
    std::cout << scen.file.string() << ": ok (" << scen.plugins.size() << " plugin(s), " << steps << " step(s), "
              << plan.size() << " repetition(s) planned)\n";
    return hosts.empty() ? kExitOk : check_run_hosts(args, hosts);
}

}  // namespace

int run_run(const std::vector<std::string>& argv) {
    std::vector<OptionSpec> specs{{"help"},       {"plugin", true, true}, {"param", true, true}, {"run-dir", true},
                                  {"resume", true}, {"allow-drift"},        {"list-steps"},          {"json"},
                                  {"markdown"},   {"check"},                {"param-file", true},    plugin_path_option(),
                                  {"junit", true},  {"metrics-listen", true}, {"allow-remote-metrics"}};
    for (auto& o : host_options()) specs.push_back(std::move(o));
    const Args args("run", argv, specs);
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    if (args.flag("list-steps")) {
        args.expect_positionals(0, 0, "no scenario with --list-steps");
        if (args.flag("json") && args.flag("markdown")) throw UsageError("--json or --markdown, not both");
        if (args.flag("json")) std::cout << boost::json::serialize(scenario::step_kinds_json()) << "\n";
        else if (args.flag("markdown")) std::cout << scenario::step_kinds_markdown();
        else std::cout << scenario::step_kinds_text();
        return kExitOk;
    }
    if (args.flag("json")) throw UsageError("--json goes with --list-steps");
    if (args.flag("markdown")) throw UsageError("--markdown goes with --list-steps");
    MetricsListen metrics(args);
    const auto resume = args.value("resume");
    // Before reading RUN_DIR (--host), and after (a resumed run's own "hosts").
    const char* no_fleet_resume = "--resume of a run on hosts: not supported; run it again";
    if (resume && !args.values("host").empty()) throw UsageError(no_fleet_resume);
    // Held to the end: one run, resume or report in a directory at a time.
    std::optional<rundir::RunLock> lock;
    if (resume) lock.emplace(rundir::RunLock::for_existing_run(*resume));
    scenario::Scenario scen = resume ? resumed_scenario(args, *resume) : scenario_from_args(args);
    const std::filesystem::path run_dir = resume                  ? std::filesystem::path(*resume)
                                          : args.value("run-dir") ? std::filesystem::path(*args.value("run-dir"))
                                                                  : rundir::RunDirectory::fresh_path("runs", scen.name);
    if (scen.plugins.empty()) throw UsageError("the scenario names no plugin; pass --plugin ID");
    scenario::check_step_plugins(scen);
    if (const auto junit = args.value("junit")) check_junit_file(*junit, scen.thresholds.size());
    const auto hosts = hosts_of_run(args, scen);
    if (resume && !hosts.empty()) throw UsageError(no_fleet_resume);
    if (metrics.wanted() && !hosts.empty())
        throw UsageError(metrics.option_text() + ": not with hosts (the scenario's \"hosts\" or --host): the run is theirs");
    const auto generator_targets = generators_of_run(args, scen, hosts);
    const auto backend_target = backend_host_of_run(args, scen, hosts);
    auto search = plugin_search(args);
    if (args.flag("check")) {
        if (resume) throw UsageError("--check validates a scenario file, not --resume");
        metrics.check();
        const int code = checked_scenario(args, scen, search, hosts);
        if (code != kExitOk) return code;
        for (const auto& g : open_run_hosts(args, generator_targets, "generators"))
            std::cout << "generator " << g.session->target().name << " (" << g.session->target().url()
                      << "): ok, this stand's build is installed there\n";
        for (const auto& b : open_run_hosts(args, backend_target, "the backend host"))
            std::cout << "backend host (" << b.session->target().url() << "): ok, this stand's build is installed there\n";
        return code;
    }
    live::LiveFigures* figures = metrics.open(scen.name);  // before anything is measured or written
    resolve_plugins(args, scen, search);
    check_probe_steps(scen, search);
    if (!resume) lock.emplace(rundir::RunLock::for_new_run(run_dir));
    const auto generators = open_run_hosts(args, generator_targets, "generators");
    const auto backend_host = open_run_hosts(args, backend_target, "the backend host");

    const std::atomic<bool>& interrupted = install_signal_handlers();
    if (!hosts.empty()) return run_on_hosts(args, scen, hosts, run_dir, interrupted);
    scenario::EngineOptions options = engine_options(run_dir, search, interrupted);
    options.resume = resume.has_value();
    options.allow_drift = args.flag("allow-drift");
    options.figures = figures;
    if (!generators.empty()) options.generators = &generators;
    if (!backend_host.empty()) options.backend_host = &backend_host.front();
    std::optional<fleetrun::ControllerChannel> controller;
    if (args.value("fleet-host")) options.controller = &controller.emplace();
    std::cerr << "stand run " << scen.name << " -> " << run_dir.string() << "\n";
    const auto outcome = run_with_progress(scen, options);
    return reported_outcome(run_dir, outcome, std::cout, args.value("junit"));
}

}  // namespace stand::cli
