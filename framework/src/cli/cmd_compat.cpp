#include "cli/commands.hpp"
#include "cli/compat_help.hpp"
#include "cli/exit_codes.hpp"
#include "cli/sigint_stop.hpp"
#include "compat/check_selection.hpp"
#include "compat/compat_output.hpp"
#include "compat/compat_suite.hpp"
#include "compat/recording_file.hpp"
#include "loader/config_secrets.hpp"
#include "text/secrets.hpp"
#include "text/temp_dir.hpp"
#include "text/text_file.hpp"
#include "text/finite_json.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace stand::cli {
namespace {

std::string read_config(const std::string& value) {
    if (value.empty() || value[0] != '@') return value;
    try {
        return text::read_input_file(value.substr(1));
    } catch (const text::TextFileError& e) {
        throw UsageError(std::string("--config: ") + e.what());
    }
}

double parse_seconds(const std::string& text) {
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !(v > 0) || v > 86400)
        throw UsageError("--timeout: expected seconds in (0, 86400], got '" + text + "'");
    return v;
}

// --record: the parts of the panel checks merged into one file; false when it
// could not be written or a passed check left no part.
bool write_recording(const compat::CompatReport& report, const compat::CompatOptions& options,
                     const std::string& file) {
    std::vector<std::string> checks;
    bool passed_without_part = false;
    for (const auto& c : report.checks)
        if (c.id.starts_with("panel.")) checks.push_back(c.id);
    try {
        auto merged = compat::merge_recording_parts(options.record_parts_dir, checks, report.plugin_label);
        for (const auto& id : merged.missing) {
            const auto it = std::find_if(report.checks.begin(), report.checks.end(),
                                         [&](const compat::CheckOutcome& c) { return c.id == id; });
            const bool passed = it != report.checks.end() && it->result.passed;
            passed_without_part |= passed;
            std::cerr << "stand: --record: " << id << " recorded nothing"
                      << (passed ? " although it passed (its part could not be written)" : " (the check failed early)")
                      << "\n";
        }
        compat::write_recording(file, merged.document);
        std::cerr << "stand: --record: " << merged.document.at("exchanges").as_array().size()
                  << " exchanges from " << checks.size() - merged.missing.size() << " panel checks written to " << file
                  << "\n";
    } catch (const std::exception& e) {
        std::cerr << "stand: " << e.what() << "\n";
        return false;
    }
    return !passed_without_part;
}

// The config's secrets (by the plugin's schema) are hidden in every line and file.
void register_secrets(const loader::LoadedPlugin& plugin, const compat::CompatOptions& options) {
    boost::system::error_code ec;
    auto config = boost::json::parse(options.config_json, ec);
    if (!ec && config.is_object()) loader::register_config_secrets(config.as_object(), plugin.config_schema);
    if (options.panel_target)
        loader::register_config_secrets(options.panel_target->wrong_credentials, plugin.config_schema);
}

int finish(const compat::CompatReport& report, const Args& args) {
    if (auto junit = args.value("junit")) {
        std::ofstream out(*junit);
        out << text::secrets().scrub(compat::to_junit_xml(report));
        if (!out) {
            std::cerr << "stand: cannot write JUnit XML to " << *junit << "\n";
            return kExitFailed;
        }
    }
    if (args.flag("json")) std::cout << text::finite_json_text(text::secrets().scrub_json(compat::to_json(report))) << "\n";
    else std::cout << text::secrets().scrub(compat::format_summary(report)) << "\n";
    return report.failed() == 0 ? kExitOk : kExitFailed;
}

// --config, --target-config, --timeout and --check; the run dir comes later.
compat::CompatOptions compat_options(const Args& args) {
    compat::CompatOptions options;
    if (auto t = args.value("target-config")) {
        try {
            options.panel_target = compat::load_panel_target(*t);
        } catch (const std::runtime_error& e) {
            throw UsageError(e.what());
        }
        options.config_json = boost::json::serialize(options.panel_target->config);
    }
    if (auto c = args.value("config")) options.config_json = read_config(*c);
    if (auto t = args.value("timeout"))
        options.timeout = std::chrono::milliseconds(static_cast<long long>(parse_seconds(*t) * 1000));
    options.only_checks = args.values("check");
    return options;
}

void make_record_parts_dir(compat::CompatOptions& options) {
    options.record_parts_dir = options.run_dir / "recording-parts";
    std::error_code ec;
    std::filesystem::remove_all(options.record_parts_dir, ec);  // parts of an earlier run in the same dir
    std::filesystem::create_directories(options.record_parts_dir, ec);
    if (ec) throw UsageError("--record: cannot create " + options.record_parts_dir.string() + ": " + ec.message());
}

}  // namespace

int run_compat(const std::vector<std::string>& argv) {
    Args args("compat", argv,
              {{"help"}, {"json"}, {"config", true}, {"timeout", true}, {"junit", true}, {"run-dir", true}, {"target-config", true},
               {"record", true}, {"check", true, true},
               plugin_path_option()});
    if (args.flag("help")) {
        std::cout << compat_help();
        return kExitOk;
    }
    args.expect_positionals(1, 1, "a plugin id or file (see stand plugins)");
    compat::CompatOptions options = compat_options(args);
    const auto record = args.value("record");
    if (record && !options.panel_target)
        throw UsageError("--record needs --target-config (it records what the panel checks exchange with the panel)");
    const bool json = args.flag("json");
    std::shared_ptr<loader::LoadedPlugin> plugin;
    try {
        // Described in a child first: a library that crashes while loading is refused, not fatal.
        plugin = loader::load_plugin(plugin_search(args).resolve(args.positionals()[0])->file);
    } catch (const loader::LoadError& e) {
        if (!json) std::cerr << "stand: refused " << e.what() << "\n";
        finish(compat::refused_report(e), args);
        return kExitPluginRefused;
    }
    std::vector<std::string> known;
    for (const auto& check : compat::suite_checks(plugin, options)) known.push_back(check.id);
    if (auto problem = compat::check_selection_problem(options.only_checks, known); !problem.empty())
        throw UsageError(problem);
    std::optional<text::TempDir> temporary;  // the scratch run dir unless --run-dir, removed at the end
    if (!args.value("run-dir")) {
        temporary.emplace("stand-compat");
        // Searchable (o+x, never listable), as a run dir of `stand run` is: a
        // panel's process that runs as its own user (PostgreSQL as postgres,
        // MariaDB as mysql) reaches its data folder through it. The plugins'
        // data dirs below stay 0700 but for the folders the kit gives such a
        // user (panel kit, user_folders.hpp).
        std::error_code ec;
        std::filesystem::permissions(temporary->path(), std::filesystem::perms::others_exec,
                                     std::filesystem::perm_options::add, ec);
    }
    options.run_dir = temporary ? temporary->path() : std::filesystem::path(*args.value("run-dir"));
    if (record) make_record_parts_dir(options);
    register_secrets(*plugin, options);
    if (!json) std::cout << "stand compat " << plugin->id << " (" << plugin->file.string() << ")\n";
    const SigintStop stop_signals;  // Ctrl-C: the running check's panel or double is killed, then stand stops
    options.stop = &SigintStop::flag();
    const auto report = compat::run_compat(plugin, options, [&](const compat::CheckOutcome& o) {
        if (!json) std::cout << text::secrets().scrub(compat::format_check_line(o)) << std::endl;
    });
    if (report.interrupted || SigintStop::flag().load()) {
        std::cerr << "stand: compat interrupted after " << report.checks.size()
                  << " check(s); every process a check started was stopped\n";
        return kExitInterrupted;
    }
    int code = finish(report, args);
    if (record && !write_recording(report, options, *record)) code = kExitFailed;
    return code;
}

}  // namespace stand::cli
