#include "cli/run_on_hosts.hpp"
#include "cli/threshold_exit.hpp"

#include "cli/exit_codes.hpp"
#include "cli/ssh_args.hpp"
#include "fleet/fleet_error.hpp"
#include "fleetrun/fleet_run.hpp"
#include "report/run_report.hpp"
#include "scenario/plugin_overrides.hpp"
#include "scenario/scenario_parser.hpp"
#include "text/secrets.hpp"

#include <algorithm>
#include <iostream>

namespace stand::cli {
namespace {

namespace json = boost::json;

fleetrun::HostRunRequest request_of(const Args& args, const scenario::Scenario& scen) {
    fleetrun::HostRunRequest r;
    r.scenario_file_name = scen.file.filename().string();
    r.scenario_text = scen.text;
    for (const auto& [name, value] : scen.params) r.params[name] = json::serialize(value);
    if (!args.values("plugin").empty())
        for (const auto& p : scen.plugins) r.plugins.push_back({p.id, p.config});
    return r;
}

int outcome_code(const fleetrun::FleetRunResult& result, const std::filesystem::path& run_dir, bool interrupted) {
    bool all_ok = true, lost = false;
    for (const auto& h : result.hosts) {
        const std::string named = "host " + h.name;
        if (!h.outcome.problem.empty())
            std::cerr << "stand: " << (h.outcome.problem.starts_with(named + " ") || h.outcome.problem.starts_with(named + ":") ? ""
                                                                                                  : named + ": ")
                      << text::secrets().scrub(h.outcome.problem) << "\n";
        else if (h.outcome.exit_code != 0 && h.outcome.exit_code != kExitThresholds)
            std::cerr << "stand: host " << h.name << ": its run ended with exit " << h.outcome.exit_code
                      << " (its log: " << fleetrun::host_dir(run_dir, h.name).string() << ")\n";
        // A host whose thresholds failed ran fine: the merged report's thresholds decide.
        all_ok = all_ok && h.outcome.problem.empty() && (h.outcome.exit_code == 0 || h.outcome.exit_code == kExitThresholds);
        lost = lost || !h.outcome.fetched;
    }
    if (lost)
        std::cerr << "stand: a host's run that did not come back may go on there: once it has ended, `stand fleet "
                     "collect "
                  << run_dir.string() << "` copies it back and writes the report again\n";
    if (interrupted) {
        std::cerr << "stand: interrupted; what the hosts measured is in " << run_dir.string()
                  << " (a run on hosts is not resumed: run it again into a new --run-dir)\n";
        return kExitInterrupted;
    }
    return all_ok ? kExitOk : kExitFailed;
}

fleet::SshTarget target_arg(const char* option, const std::string& arg) {
    try {
        return fleet::parse_host_arg(arg);
    } catch (const fleet::FleetError& e) {
        throw UsageError(std::string(option) + ": " + e.what());
    }
}

}  // namespace

std::vector<OptionSpec> host_options() {
    std::vector<OptionSpec> specs{{"host", true, true}, {"generator", true, true}, {"fleet-host", true}};
    for (auto& o : ssh_option_specs()) specs.push_back(std::move(o));
    return specs;
}

std::vector<fleet::SshTarget> hosts_of_run(const Args& args, const scenario::Scenario& scen) {
    if (args.value("fleet-host")) {
        if (!args.values("host").empty()) throw UsageError("--fleet-host (set by the controller) goes without --host");
        return {};
    }
    auto hosts = scen.hosts;
    for (const auto& arg : args.values("host")) {
        fleet::SshTarget t = target_arg("--host", arg);
        std::erase_if(hosts, [&](const fleet::SshTarget& h) { return h.name == t.name; });
        hosts.push_back(std::move(t));
    }
    const bool backend_host = scen.backend && scen.backend->host;
    if (hosts.empty() && scen.generators.empty() && !backend_host &&
        (args.value("ssh-config") || args.flag("accept-new-host-key")))
        throw UsageError("--ssh-config and --accept-new-host-key go with --host (or a scenario's \"hosts\", "
                         "\"generators\" or backend \"host\")");
    return hosts;
}

std::vector<fleet::SshTarget> generators_of_run(const Args& args, const scenario::Scenario& scen,
                                                const std::vector<fleet::SshTarget>& hosts) {
    const bool named = scenario::uses_generators(scen);
    auto generators = scen.generators;
    for (const auto& arg : args.values("generator")) {
        fleet::SshTarget t = target_arg("--generator", arg);
        if (std::none_of(generators.begin(), generators.end(), [&](const auto& g) { return g.name == t.name; }))
            throw UsageError("--generator " + t.name + ": the scenario's \"generators\" have no host of that name (it "
                             "replaces one by name: a load step names the hosts it uses)");
        std::erase_if(generators, [&](const fleet::SshTarget& g) { return g.name == t.name; });
        generators.push_back(std::move(t));
    }
    if (!named || args.value("fleet-host")) return {};
    if (!hosts.empty())
        throw UsageError("a scenario whose load steps name generators runs here, not on hosts (--host or \"hosts\")");
    return generators;
}

std::vector<fleetrun::CheckedHost> open_run_hosts(const Args& args, const std::vector<fleet::SshTarget>& targets,
                                                  const std::string& what) {
    if (targets.empty()) return {};
    try {
        return fleetrun::open_checked_hosts(targets, ssh_options(args));
    } catch (const fleet::FleetError& e) {
        throw UsageError("refused " + what + " (nothing ran):\n" + text::secrets().scrub(e.what()));
    }
}

std::vector<fleet::SshTarget> backend_host_of_run(const Args& args, const scenario::Scenario& scen,
                                                  const std::vector<fleet::SshTarget>& hosts) {
    if (!scen.backend || !scen.backend->host || args.value("fleet-host")) return {};
    if (!hosts.empty())
        throw UsageError("a scenario whose backend is on a host (\"backend\": {\"host\": ...}) runs here, not on hosts "
                         "(--host or \"hosts\")");
    return {*scen.backend->host};
}

int check_run_hosts(const Args& args, const std::vector<fleet::SshTarget>& hosts) {
    try {
        for (const auto& h : fleetrun::check_fleet(hosts, ssh_options(args)))
            std::cout << "host " << h.name << " (" << h.url << "): ok, this stand's build is installed there\n";
    } catch (const fleet::FleetError& e) {
        std::cerr << "stand: refused hosts:\n" << text::secrets().scrub(e.what()) << "\n";
        return kExitUsage;
    }
    return kExitOk;
}

int run_on_hosts(const Args& args, const scenario::Scenario& scen, const std::vector<fleet::SshTarget>& hosts,
                 const std::filesystem::path& run_dir, const std::atomic<bool>& interrupted) {
    fleetrun::FleetRunOptions options;
    options.hosts = hosts;
    options.ssh = ssh_options(args);
    options.run_dir = run_dir;
    options.request = request_of(args, scen);
    options.interrupted = &interrupted;
    options.log = [](const std::string& line) { std::cerr << text::secrets().scrub(line) << "\n"; };
    std::cerr << "stand run " << scen.name << " on " << hosts.size() << " host(s) -> " << run_dir.string() << "\n";
    fleetrun::FleetRunResult result;
    try {
        result = fleetrun::run_on_fleet(options);
    } catch (const fleet::FleetError& e) {
        std::cerr << "stand: refused before anything ran:\n" << text::secrets().scrub(e.what()) << "\n";
        return kExitUsage;
    }
    int thresholds = kExitOk;
    if (result.merged) {
        const auto files = report::write_run_report(run_dir);
        std::cout << "summary: " << files.summary_md.string() << "\n"
                  << "results: " << files.results_json.string() << "\n"
                  << "report:  " << files.report_html.string() << "\n";
        thresholds = threshold_code(files.thresholds, args.value("junit"), "stand run " + run_dir.string());
    } else {
        std::cerr << "stand: no host's run came back; what happened is in " << (run_dir / "fleet.json").string()
                  << "\n";
    }
    const int code = outcome_code(result, run_dir, interrupted.load());
    return code == kExitOk ? thresholds : code;
}

}  // namespace stand::cli
