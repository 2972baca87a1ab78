#include "cli/compat_help.hpp"

#include "compat/compat_suite.hpp"
#include "compat/panel_target.hpp"

#include <stand/ext/lifecycle.h>
#include <stand/ext/panel.h>
#include <stand/ext/probe.h>
#include <stand/ext/proxy.h>

#include <memory>
#include <set>
#include <sstream>

namespace stand::cli {
namespace {

const char* kOptions = R"(usage: stand compat PLUGIN [options]

Runs the compatibility checks of a plugin. Every check that calls plugin code
runs in a forked child, so a crash or a hang is a failed check naming the
signal or the timeout, never a crash of stand.

  --config JSON|@FILE  config passed to create() (default {}, or the target's)
  --target-config FILE add the stand.panel/1 checks against a real panel or a
                       test double the plugin starts (the file's keys and the
                       checks are below)
  --check ID           run only this check (repeatable): any id listed below
                       that the plugin's full run has, e.g.
                       panel.subscriptions-decode (panel checks need
                       --target-config). No check depends on
                       another: each starts from a fresh instance, a panel
                       check from a fresh start of the panel. The table,
                       --json and --junit hold the checks run; an unknown id
                       is a usage error naming the known ones
  --record FILE        with --target-config: write what the panel checks
                       exchanged with the panel to FILE, per answer (429s
                       waited out too) its label,
                       method, normalised path, status, content type, cookie
                       names, some header names and the body's JSON shape (no
                       values); the format of tests/data/real-panels/ (see
                       CONTRIBUTING.md, "Holding a double to a real panel")
  --timeout SECONDS    per-check limit (default 10)
  --junit FILE         also write JUnit XML
  --json               print the report as JSON instead of a table
  --run-dir DIR        scratch run directory (default: a temporary one, removed)
  --plugin-path DIR    extra plugin directory (repeatable)
)";

const char* kExit = R"(
Exit: 0 all checks passed, 1 a check failed, 2 a usage error (an unknown
--check id, a bad target file), 3 the loader refused the plugin.
)";

// `text` as lines of at most `width` characters, each after `indent` spaces.
std::string wrapped(const std::string& text, std::size_t indent, std::size_t width) {
    std::istringstream words(text);
    std::string out, line, word;
    while (words >> word) {
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += std::string(indent, ' ') + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) out += std::string(indent, ' ') + line + "\n";
    return out;
}

// The ids and descriptions of suite_checks() (nothing runs; only
// generic_checks() with `generic_only`), for a plugin declaring
// `interfaces`, with a target file when `panel`; `skip` leaves out ids
// already listed.
std::string check_list(const std::vector<std::string>& interfaces, bool panel, std::set<std::string>& skip,
                       bool generic_only = false) {
    auto plugin = std::make_shared<loader::LoadedPlugin>();
    plugin->id = "any";
    plugin->interfaces = interfaces;
    compat::CompatOptions options;
    if (panel) options.panel_target = compat::PanelTarget{};
    std::string out;
    const auto suite = generic_only ? compat::generic_checks(plugin, options) : compat::suite_checks(plugin, options);
    for (const auto& check : suite) {
        if (!skip.insert(check.id).second) continue;
        out += "  " + check.id + "\n" + wrapped(check.description, 6, 72);
    }
    return out;
}

// Every check id, from the suite itself: a new check is listed without more.
std::string checks() {
    std::set<std::string> listed;
    std::string out = "\nThe checks (--check ID), in the order they run.\nEvery plugin:\n";
    out += check_list({}, false, listed);
    out += "One per interface the plugin declares:\n";
    out += check_list({STAND_LIFECYCLE_ID, STAND_PANEL_ID, STAND_PROXY_ID, STAND_PROBE_ID}, false, listed, true);
    out += "A stand.panel/1 plugin with --target-config (all must pass before an adapter\nis published):\n";
    out += check_list({STAND_LIFECYCLE_ID, STAND_PANEL_ID}, true, listed);
    out += "A stand.proxy/1 plugin with stand.lifecycle/1:\n";
    out += check_list({STAND_LIFECYCLE_ID, STAND_PROXY_ID}, false, listed);
    return out;
}

std::string target_keys() {
    std::string out =
        "\nThe --target-config file: a JSON object (// comment lines allowed) with these\nkeys:\n";
    for (const auto& key : compat::panel_target_keys()) {
        const std::string usage = key.required ? ", required" : "; default: " + std::string(key.default_text);
        out += "  " + std::string(key.name) + " (" + key.type() + usage + ")\n";
        out += wrapped(std::string(key.meaning), 6, 72);
    }
    return out;
}

}  // namespace

std::string compat_help() { return kOptions + target_keys() + checks() + kExit; }

}  // namespace stand::cli
