#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "compat/compat_output.hpp"
#include "compat/compat_suite.hpp"

#include <boost/json.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace stand::cli {
namespace {

const char* kHelp = R"(usage: stand compat PLUGIN [options]

Runs the compatibility checks of a plugin. Every check that calls plugin code
runs in a forked child, so a crash or a hang is a failed check naming the
signal or the timeout, never a crash of stand.

  --config JSON|@FILE  config passed to create() (default {}, or the target's)
  --target-config FILE add the stand.panel/1 checks against a real panel or a
                       test double the plugin starts: {"config": {...},
                       "wrong_credentials": {...}, "users": 5, "ready_timeout_s": 60,
                       "check_timeout_s": 180}; check ids in
                       tests/compat/mustpass-panel-1.txt
  --timeout SECONDS    per-check limit (default 10)
  --junit FILE         also write JUnit XML
  --json               print the report as JSON instead of a table
  --run-dir DIR        scratch run directory (default: a temporary one, removed)
  --plugin-path DIR    extra plugin directory (repeatable)

Exit: 0 all checks passed, 1 a check failed, 3 the loader refused the plugin.
)";

std::string read_config(const std::string& value) {
    if (value.empty() || value[0] != '@') return value;
    std::ifstream in(value.substr(1));
    if (!in) throw UsageError("--config: cannot read " + value.substr(1));
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

double parse_seconds(const std::string& text) {
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !(v > 0) || v > 86400)
        throw UsageError("--timeout: expected seconds in (0, 86400], got '" + text + "'");
    return v;
}

std::filesystem::path make_temp_run_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "stand-compat-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary run dir");
    return pattern;
}

int finish(const compat::CompatReport& report, const Args& args) {
    if (auto junit = args.value("junit")) {
        std::ofstream out(*junit);
        out << compat::to_junit_xml(report);
        if (!out) {
            std::cerr << "stand: cannot write JUnit XML to " << *junit << "\n";
            return kExitFailed;
        }
    }
    if (args.flag("json")) std::cout << boost::json::serialize(compat::to_json(report)) << "\n";
    else std::cout << compat::format_summary(report) << "\n";
    return report.failed() == 0 ? kExitOk : kExitFailed;
}

}  // namespace

int run_compat(const std::vector<std::string>& argv) {
    Args args("compat", argv,
              {{"help"}, {"json"}, {"config", true}, {"timeout", true}, {"junit", true}, {"run-dir", true}, {"target-config", true},
               plugin_path_option()});
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    args.expect_positionals(1, 1, "a plugin id or file (see stand plugins)");
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
    bool temporary = !args.value("run-dir");
    options.run_dir = temporary ? make_temp_run_dir() : std::filesystem::path(*args.value("run-dir"));

    const bool json = args.flag("json");
    compat::CompatReport report;
    int code = kExitOk;
    try {
        auto plugin = plugin_search(args).resolve(args.positionals()[0]);
        if (!json) std::cout << "stand compat " << plugin->id << " (" << plugin->file.string() << ")\n";
        report = compat::run_compat(plugin, options, [&](const compat::CheckOutcome& o) {
            if (!json) std::cout << compat::format_check_line(o) << std::endl;
        });
        code = finish(report, args);
    } catch (const loader::LoadError& e) {
        report = compat::refused_report(e);
        if (!json) std::cerr << "stand: refused " << e.what() << "\n";
        finish(report, args);
        code = kExitPluginRefused;
    }
    if (temporary) {
        std::error_code ec;
        std::filesystem::remove_all(options.run_dir, ec);
    }
    return code;
}

}  // namespace stand::cli
