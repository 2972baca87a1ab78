// The scenario parser (scenario/scenario_parser.hpp) with `stand run`'s
// --param and --plugin arguments. Validation is the only gate: a scenario
// is accepted or refused with a ScenarioError naming the file (a bad
// --plugin with a PluginOverrideError); any other exception escaping is a
// finding, as it would end `stand run` with "internal error".
// Input: the scenario text, optionally followed by a line "--" and then
// lines "param NAME=VALUE" or "plugin ID[=CONFIG]".
#include "fuzz_input.hpp"
#include "scenario/plugin_overrides.hpp"
#include "scenario/scenario_parser.hpp"

#include <exception>
#include <string>
#include <vector>

using stand::fuzz::check;
namespace scenario = stand::scenario;

namespace {

constexpr std::string_view kArgsMark = "\n--\n";

struct CommandLine {
    scenario::ParamOverrides params;
    std::vector<std::string> plugins;
};

// The arguments after the scenario, split as cmd_run.cpp splits --param.
CommandLine command_line(std::string_view text) {
    CommandLine out;
    while (!text.empty()) {
        const auto eol = text.find('\n');
        const std::string_view line = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
        if (line.starts_with("param ")) {
            const std::string_view p = line.substr(6);
            const auto eq = p.find('=');
            if (eq == std::string_view::npos || eq == 0) continue;  // refused by the command line itself
            out.params[std::string(p.substr(0, eq))] = std::string(p.substr(eq + 1));
        } else if (line.starts_with("plugin ")) {
            const std::string_view id = line.substr(7);
            if (id.find("=@") == std::string_view::npos) out.plugins.emplace_back(id);  // no file reads
        }
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const auto mark = input.find(kArgsMark);
    const std::string_view text = input.substr(0, mark);
    const CommandLine args =
        mark == std::string_view::npos ? CommandLine{} : command_line(input.substr(mark + kArgsMark.size()));
    try {
        auto scen = scenario::parse_scenario_text(text, "fuzz.json", args.params);
        if (!args.plugins.empty()) scen.plugins = scenario::parse_plugin_overrides(args.plugins);
        scenario::check_step_plugins(scen);
    } catch (const scenario::ScenarioError& e) {
        check(std::string_view(e.what()).starts_with("fuzz.json"), "a refusal names the file");
    } catch (const scenario::PluginOverrideError&) {
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: escaped the validation: %s\n", e.what());
        check(false, "the scenario parser throws ScenarioError only");
    }
    return 0;
}
