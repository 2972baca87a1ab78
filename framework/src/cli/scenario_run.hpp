// What `stand run` and `stand probe` share to run a scenario here: the
// checks before anything is measured, SIGINT/SIGTERM as a stop flag, the
// engine's progress and log lines on stderr, and the closing report.
#pragma once

#include <stdexcept>

#include "cli/args.hpp"
#include "loader/plugin_search.hpp"
#include "scenario/engine.hpp"
#include "scenario/scenario_model.hpp"

#include <atomic>
#include <filesystem>
#include <optional>
#include <ostream>

namespace stand::cli {

// A plugin config refused by the plugin's schema or by the plugin when
// created: the user's config, exit 2 (a plugin the loader refuses is a
// loader::LoadError, exit 3).
class PluginConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Refuses bad plugins (LoadError), and configs their schemas refuse
// (PluginConfigError), before measuring anything, naming where each was
// given (the scenario's place, or --plugin). With `create_each` (run
// --check), each plugin is also created once with its config in a scratch
// directory, so a config only the plugin can refuse (one key needing
// another) is refused too. A run does not: a create() that hangs or starts
// something belongs to a repetition, where Ctrl-C and the isolation tests
// expect it (a refused config fails that plugin's repetitions at once).
void resolve_plugins(const Args& args, const scenario::Scenario& scen, const loader::PluginSearch& search,
                     bool create_each = false);

// Every run_probe step's job and params, asked of the probe plugins
// themselves (their workers run in a scratch directory). Installs the stop
// signals' handlers first: a signal stops the check's worker and throws
// scenario::StoppedBeforeRun.
void check_probe_steps(const scenario::Scenario& scen, const loader::PluginSearch& search);

// SIGINT, SIGTERM and SIGHUP (SigintStop::kStopSignals) set the returned flag from now on (the engine stops
// cleanly at it, keeping what was measured).
const std::atomic<bool>& install_signal_handlers();

// Options for a run here: progress and live lines on stderr (rewritten in
// place on a terminal; elsewhere a live line at most every 10 s), log lines,
// secrets scrubbed from all.
scenario::EngineOptions engine_options(const std::filesystem::path& run_dir, const loader::PluginSearch& search,
                                       const std::atomic<bool>& interrupted);

// run_scenario, leaving the terminal's line clean after it.
scenario::EngineOutcome run_with_progress(const scenario::Scenario& scen, const scenario::EngineOptions& options);

// Writes the report, prints where its files are on `paths` and the
// repetition counts on stderr, writes the thresholds' JUnit to `junit`;
// the exit code of the run: 1 when it stopped or a repetition failed, 130
// interrupted, else kExitThresholds when a threshold failed.
int reported_outcome(const std::filesystem::path& run_dir, const scenario::EngineOutcome& outcome, std::ostream& paths,
                     const std::optional<std::string>& junit = std::nullopt);

}  // namespace stand::cli
