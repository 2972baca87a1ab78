// stand probe PLUGIN JOB: one probe job without a scenario file, as fio
// users type one line. It is a scenario of one run_probe step run as
// `stand run` runs one (the job and params asked of the plugin first, the
// box, the tmpfs refusal and the caveats, the run directory and report),
// then the step's figures printed, as text or as one JSON object.
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/scenario_run.hpp"
#include "rundir/run_directory.hpp"
#include "rundir/run_lock.hpp"
#include "scenario/json_text.hpp"
#include "rundir/run_files.hpp"
#include "scenario/scenario_parser.hpp"
#include "text/finite_json.hpp"
#include "text/secrets.hpp"
#include "text/text_file.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

namespace stand::cli {
namespace {

namespace json = boost::json;

const char* kHelp = R"(usage: stand probe PLUGIN JOB [--param NAME=VALUE]... [options]

Runs one job of a probe plugin (stand info PLUGIN lists its jobs and their
params) as a one-step scenario: the job and its params are checked by the
plugin before anything runs, the probe runs in the measured box with the
same checks and caveats as in a scenario (the disk probe refuses a tmpfs),
and the run directory gets the repetition and the report as `stand run`
writes them. Then the job's figures are printed.

  --param NAME=VALUE    a param of the job (repeatable; VALUE is JSON, else a string)
  --json                print one JSON object (schema stand.probe-run/1) on stdout:
                        plugin, job, status, reason, metrics, facts, notes
                        (the probe's caveats), findings, run_dir
  --run-dir DIR         where to write (default: runs/probe-<plugin>-<job>-<time>)
  --plugin-path DIR     extra plugin directory (repeatable)

Example:
  stand probe disk rnd4k-q32t1-read --param dir=/var/tmp --param duration_s=10

Exit: 0 ok, 1 the job failed, 2 bad arguments or params, 3 a plugin was
refused, 130 interrupted.
)";

constexpr const char* kStep = "job";

// --param NAME=VALUE, VALUE as JSON where it parses, else the text.
json::object job_params(const Args& args) {
    json::object params;
    for (const auto& p : args.values("param")) {
        const auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0) throw UsageError("--param " + p + ": expected NAME=VALUE");
        boost::system::error_code ec;
        json::value v = json::parse(p.substr(eq + 1), ec);
        if (!ec && v.is_double())  // the refusals `stand run --param` makes (scenario/json_text.hpp)
            if (std::string why = scenario::number_refusal(v.get_double(), p.substr(eq + 1)); !why.empty())
                throw UsageError("--param " + p + ": " + why.substr(0, why.rfind(", got ")));
        params[p.substr(0, eq)] = ec ? json::value(p.substr(eq + 1)) : std::move(v);
    }
    return params;
}

std::string run_name(const std::string& plugin, const std::string& job) {
    std::string name = "probe-" + plugin + "-" + job;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
    return name.substr(0, 64);
}

scenario::Scenario one_step_scenario(const std::string& plugin, const std::string& job, const json::object& params) {
    const json::object text{
        {"schema_version", 1},
        {"name", run_name(plugin, job)},
        {"plugins", json::array{json::value(plugin)}},
        {"repetitions", 1},
        {"phases", json::array{json::object{
                       {"name", "probe"},
                       {"steps", json::array{json::object{{"step", "run_probe"}, {"name", kStep}, {"job", job},
                                                          {"params", params}}}}}}}};
    return scenario::parse_scenario_text(json::serialize(text), "stand probe " + plugin + " " + job);
}

// The one repetition's record (reps/KEY.json).
json::object the_rep(const std::filesystem::path& run_dir) {
    auto reps = rundir::RunDirectory(run_dir).read_all_reps();
    if (reps.empty()) throw std::runtime_error("no repetition was written in " + (run_dir / "reps").string());
    return std::move(reps.front());
}

json::object probe_json(const std::string& plugin, const std::string& job, const json::object& rep,
                        const std::filesystem::path& run_dir) {
    json::object metrics;
    const std::string prefix = std::string(kStep) + ".";
    if (const auto* m = rep.if_contains(rundir::rep_key::kMetrics); m && m->is_object())
        for (const auto& [k, v] : m->as_object())
            if (std::string_view(k).starts_with(prefix)) metrics[std::string(k).substr(prefix.size())] = v;
    json::object out{{"schema", "stand.probe-run/1"}, {"plugin", plugin}, {"job", job}, {"metrics", std::move(metrics)}};
    for (const auto key : {rundir::rep_key::kStatus, rundir::rep_key::kReason})
        if (const auto* v = rep.if_contains(key)) out[key] = *v;
    const auto* facts = rep.if_contains(rundir::rep_key::kProbeFacts);
    out["facts"] = facts != nullptr && facts->is_object() && facts->as_object().contains(kStep)
                       ? facts->as_object().at(kStep)
                       : json::value(json::object{});
    for (const auto key : {rundir::rep_key::kNotes, rundir::rep_key::kFindings}) {
        const auto* v = rep.if_contains(key);
        out[key] = v != nullptr && v->is_array() ? *v : json::value(json::array{});
    }
    out["run_dir"] = run_dir.string();
    return out;
}

std::string number_text(const json::value& v) {
    if (!v.is_number()) return json::serialize(v);
    char text[64];
    std::snprintf(text, sizeof text, "%.6g", v.to_number<double>());
    return text;
}

std::string text_of(const json::value& v) { return v.is_string() ? std::string(v.get_string()) : json::serialize(v); }

void print_text(const json::object& p, std::ostream& out) {
    out << text_of(p.at("plugin")) << " " << text_of(p.at("job")) << ": " << text_of(p.at("status"));
    if (const auto* reason = p.if_contains("reason"); reason && reason->is_string()) out << " (" << text_of(*reason) << ")";
    out << "\n";
    for (const auto& [k, v] : p.at("metrics").as_object()) {
        char line[160];
        std::snprintf(line, sizeof line, "  %-24s %s\n", std::string(k).c_str(), number_text(v).c_str());
        out << line;
    }
    for (const auto& n : p.at("notes").as_array()) out << "caveat: " << text_of(n) << "\n";
    for (const auto& f : p.at("findings").as_array())
        if (f.is_object() && f.as_object().contains("id") && f.as_object().contains("message"))
            out << "finding " << text_of(f.at("id")) << ": " << text_of(f.at("message")) << "\n";
}

}  // namespace

int run_probe(const std::vector<std::string>& argv) {
    const Args args("probe", argv, {{"help"}, {"param", true, true}, {"json"}, {"run-dir", true}, plugin_path_option()});
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    args.expect_positionals(2, 2, "a probe plugin and one of its jobs (stand info PLUGIN lists them)");
    const std::string plugin = args.positionals()[0], job = args.positionals()[1];
    const auto scen = one_step_scenario(plugin, job, job_params(args));
    const std::filesystem::path run_dir = args.value("run-dir") ? std::filesystem::path(*args.value("run-dir"))
                                                                : rundir::RunDirectory::fresh_path("runs", scen.name);
    auto search = plugin_search(args);
    resolve_plugins(args, scen, search);
    check_probe_steps(scen, search);
    const auto lock = rundir::RunLock::for_new_run(run_dir);
    const auto& interrupted = install_signal_handlers();
    std::cerr << "stand probe " << plugin << " " << job << " -> " << run_dir.string() << "\n";
    const auto outcome = run_with_progress(scen, engine_options(run_dir, search, interrupted));
    std::ostringstream paths;
    const int code = reported_outcome(run_dir, outcome, paths);
    std::cerr << paths.str();
    const auto result = probe_json(plugin, job, the_rep(run_dir), run_dir);
    // The repetition was written redacted; the scrub covers a value a plugin marked secret since.
    if (args.flag("json")) {
        std::cout << text::secrets().scrub(text::finite_json_text(result)) << "\n";
    } else {
        std::ostringstream out;
        print_text(result, out);
        std::cout << text::secrets().scrub(out.str());
    }
    return code;
}

}  // namespace stand::cli
