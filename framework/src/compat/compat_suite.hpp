// `stand compat`: conformance checks of one plugin, each in a forked child.
#pragma once

#include "child/child_runner.hpp"
#include "compat/panel_target.hpp"
#include "loader/plugin_loader.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stand::compat {

using child::ChildResult;
using child::run_in_child;

struct CompatOptions {
    std::string config_json = "{}";  // passed to create()
    std::chrono::milliseconds timeout{10000};  // per check
    std::filesystem::path run_dir;  // scratch run dir for the plugin's host services
    std::size_t rss_growth_limit_bytes = 4u << 20;  // create/destroy x100
    // --target-config: adds the stand.panel/1 checks against that target.
    std::optional<PanelTarget> panel_target;
    // The `stand` binary, for the proxy checks' backend (`stand backend`).
    std::filesystem::path stand_binary = "/proc/self/exe";
    // --record: each panel check's child writes its exchanges here (recording_part.hpp); empty: off.
    std::filesystem::path record_parts_dir;
    // --check: only these ids run (check_selection.hpp validates them); empty: all.
    std::vector<std::string> only_checks;
    // Set by a stop signal: the running check's processes are killed and no further check runs.
    const std::atomic<bool>* stop = nullptr;
};

struct CheckOutcome {
    std::string id;           // stable check id, e.g. "generic.invalid-config"
    std::string description;
    ChildResult result;
};

struct CompatReport {
    std::string plugin_label;  // id or the file when it did not load
    std::filesystem::path file;
    std::vector<CheckOutcome> checks;
    std::size_t not_selected = 0;  // checks of the suite that --check left out
    bool interrupted = false;      // a stop signal ended the suite early
    std::size_t passed() const;
    std::size_t failed() const;
    std::size_t skipped() const;
};

struct Check {
    std::string id;
    std::string description;
    bool in_child = true;
    std::function<ChildResult()> run;
    std::chrono::milliseconds timeout{0};  // 0: CompatOptions::timeout
};

// The generic checks every plugin must pass (later issues add per-interface ones).
std::vector<Check> generic_checks(const std::shared_ptr<loader::LoadedPlugin>& plugin, const CompatOptions& options);

// Every check of the suite for this plugin and options, in run order (none run).
std::vector<Check> suite_checks(const std::shared_ptr<loader::LoadedPlugin>& plugin, const CompatOptions& options);

// Runs the checks of suite_checks() that options.only_checks selects (all when
// empty); `on_check` is called after each one (for progress output).
CompatReport run_compat(const std::shared_ptr<loader::LoadedPlugin>& plugin, const CompatOptions& options,
                        const std::function<void(const CheckOutcome&)>& on_check = {});

// A report for a plugin the loader refused: one failed "load" check.
CompatReport refused_report(const loader::LoadError& error);

}  // namespace stand::compat
