#include "cli/scenario_run.hpp"
#include "cli/threshold_exit.hpp"
#include "cli/sigint_stop.hpp"

#include "cli/exit_codes.hpp"
#include "isolation/plugin_worker.hpp"
#include "loader/schema_check.hpp"
#include "report/run_report.hpp"
#include "scenario/probe_params_check.hpp"
#include "scenario/step_interfaces.hpp"
#include "text/secrets.hpp"
#include "text/temp_dir.hpp"

#include <chrono>
#include <csignal>
#include <map>
#include <memory>
#include <iostream>

#include <unistd.h>

namespace stand::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_signal(int) { g_interrupted.store(true); }

}  // namespace

namespace {

// What the plugin itself says of its config (run --check): created once in
// a worker with a scratch data dir and shut down.
void check_created(const scenario::PluginRef& plugin, const loader::PluginInfo& loaded, const std::string& where) {
    const text::TempDir scratch("stand-create");
    isolation::WorkerOptions options;
    options.plugin_file = loaded.file;
    options.plugin_id = plugin.label;
    options.host.run_dir = scratch.path() / plugin.label;
    options.host.log = [](int, const std::string&, const std::string&) {};
    isolation::PluginWorker worker(std::move(options));
    const auto created = worker.create(boost::json::serialize(plugin.config), std::chrono::seconds(30));
    worker.shutdown(std::chrono::seconds(5));
    if (!created.ok()) throw PluginConfigError(where + ".config: " + plugin.label + " refuses its config: " + created.error);
}

}  // namespace

void resolve_plugins(const Args& args, const scenario::Scenario& scen, const loader::PluginSearch& search,
                     bool create_each) {
    std::map<std::string, std::vector<std::string>> declared;
    for (std::size_t i = 0; i < scen.plugins.size(); ++i) {
        const auto& plugin = scen.plugins[i];
        const std::string where = args.values("plugin").empty()
                                      ? scen.file.string() + ": $.plugins[" + std::to_string(i) + "]"
                                      : "--plugin " + plugin.id;
        std::shared_ptr<const loader::PluginInfo> loaded;
        try {
            loaded = search.resolve(plugin.id);
        } catch (const loader::LoadError& e) {
            throw loader::LoadError(where, e.what());
        }
        declared[plugin.label] = loaded->interfaces;
        const auto problems = loader::config_problems(plugin.config, loaded->config_schema);
        if (problems.empty()) {
            if (create_each) check_created(plugin, *loaded, where);
            continue;
        }
        std::string all;
        for (const auto& p : problems) all += (all.empty() ? "" : "; ") + p;
        // A compat target (stand compat --target-config) holds the plugin config under "config".
        const auto* inner = plugin.config.if_contains("config");
        const bool target = inner != nullptr && inner->is_object() &&
                            (plugin.config.contains("wrong_credentials") || plugin.config.contains("users") ||
                             plugin.config.contains("ready_timeout_s"));
        throw PluginConfigError(where + ".config: " + plugin.label + "'s config schema (stand info " + plugin.id +
                                ") refuses: " + all +
                                (target ? ". This is a compat target (stand compat --target-config): a run "
                                          "takes the plugin config under its \"config\" alone"
                                        : ""));
    }
    scenario::check_step_interfaces(scen, declared);
}

// Every run_probe step's job and params, asked of the probe plugins
// themselves (their workers run in a scratch directory).
void check_probe_steps(const scenario::Scenario& scen, const loader::PluginSearch& search) {
    const text::TempDir scratch("stand-check");
    scenario::check_probe_params(scen, search, scratch.path(), &install_signal_handlers());
}

const std::atomic<bool>& install_signal_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (const int signal_number : SigintStop::kStopSignals) ::sigaction(signal_number, &sa, nullptr);
    return g_interrupted;
}

scenario::EngineOptions engine_options(const std::filesystem::path& run_dir, const loader::PluginSearch& search,
                                       const std::atomic<bool>& interrupted) {
    const bool tty = ::isatty(STDERR_FILENO);
    scenario::EngineOptions options;
    options.run_dir = run_dir;
    options.search = &search;
    options.interrupted = &interrupted;
    options.progress = [tty](const std::string& line) {
        if (tty) std::cerr << "\r\033[K" << text::secrets().scrub(line) << std::flush;
        else std::cerr << text::secrets().scrub(line) << "\n";
    };
    // Elsewhere (a log file, CI) one live line in ten seconds is enough.
    auto last_plain = std::make_shared<std::chrono::steady_clock::time_point>();
    options.live = [tty, last_plain](const std::string& line) {
        if (tty) {
            std::cerr << "\r\033[K" << text::secrets().scrub(line) << std::flush;
            return;
        }
        const auto now = std::chrono::steady_clock::now();
        if (now - *last_plain < std::chrono::seconds(10)) return;
        *last_plain = now;
        std::cerr << text::secrets().scrub(line) << "\n";
    };
    options.log = [tty](const std::string& line) {
        std::cerr << (tty ? "\r\033[K" : "") << text::secrets().scrub(line) << "\n";
    };
    return options;
}

scenario::EngineOutcome run_with_progress(const scenario::Scenario& scen, const scenario::EngineOptions& options) {
    auto outcome = scenario::run_scenario(scen, options);
    if (::isatty(STDERR_FILENO)) std::cerr << "\r\033[K";
    return outcome;
}

int reported_outcome(const std::filesystem::path& run_dir, const scenario::EngineOutcome& outcome, std::ostream& paths,
                     const std::optional<std::string>& junit) {
    auto files = report::write_run_report(run_dir);
    paths << "summary: " << files.summary_md.string() << "\n"
              << "results: " << files.results_json.string() << "\n"
              << "report:  " << files.report_html.string() << "\n";
    std::cerr << outcome.reps_ok << " repetitions ok, " << outcome.reps_failed << " failed, " << outcome.reps_skipped
              << " already done\n";
    const int thresholds = threshold_code(files.thresholds, junit, "stand run " + run_dir.string());
    if (!outcome.stopped_because.empty()) {
        std::cerr << "stand: run stopped: " << outcome.stopped_because << "\n";
        return kExitFailed;
    }
    if (outcome.interrupted) {
        std::cerr << "stand: interrupted; finish with: stand run --resume " << run_dir.string() << "\n";
        return kExitInterrupted;
    }
    if (outcome.reps_failed != 0) return kExitFailed;
    if (!outcome.threshold_stop.empty()) std::cerr << "stand: run stopped: " << outcome.threshold_stop << "\n";
    return thresholds;
}

}  // namespace stand::cli
