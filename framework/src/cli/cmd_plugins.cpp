#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <iostream>

namespace stand::cli {

OptionSpec plugin_path_option() { return {"plugin-path", true, true}; }

loader::PluginSearch plugin_search(const Args& args) {
    std::vector<std::filesystem::path> dirs;
    for (const auto& d : args.values("plugin-path")) dirs.emplace_back(d);
    return loader::PluginSearch(loader::PluginSearch::default_path(dirs));
}

namespace {

const char* kHelp = R"(usage: stand plugins [--json] [--plugin-path DIR]...

Lists the plugins in the search path: --plugin-path DIRs, then
$STAND_PLUGIN_PATH (colon-separated), then the plugins directory next to the
stand binary. Files that are refused are listed on stderr with the reason.

Exit: 0 all loaded, 3 one or more files were refused.
)";

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ",") + i;
    return out.empty() ? "-" : out;
}

}  // namespace

int run_plugins(const std::vector<std::string>& argv) {
    Args args("plugins", argv, {{"help"}, {"json"}, plugin_path_option()});
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    args.expect_positionals(0, 0, "no arguments");
    auto search = plugin_search(args);
    auto scanned = search.scan();

    if (args.flag("json")) {
        boost::json::array plugins, refused;
        for (const auto& p : scanned.plugins) {
            boost::json::array ifaces;
            for (const auto& i : p->interfaces) ifaces.emplace_back(i);
            plugins.push_back({{"id", p->id}, {"name", p->name}, {"version", p->version},
                               {"interfaces", std::move(ifaces)}, {"file", p->file.string()}});
        }
        for (const auto& r : scanned.refused) refused.push_back({{"file", r.file.string()}, {"reason", r.reason}});
        boost::json::array dirs;
        for (const auto& d : search.dirs()) dirs.emplace_back(d.string());
        std::cout << boost::json::serialize(boost::json::object{
                         {"plugins", std::move(plugins)}, {"refused", std::move(refused)}, {"search_path", std::move(dirs)}})
                  << "\n";
    } else {
        if (scanned.plugins.empty()) {
            std::cout << (scanned.refused.empty() ? "no plugins found in:" : "no loadable plugins in:");
            for (const auto& d : search.dirs()) std::cout << " " << d.string();
            std::cout << "\n";
        } else {
            std::printf("%-20s %-10s %-40s %s\n", "ID", "VERSION", "INTERFACES", "FILE");
            for (const auto& p : scanned.plugins)
                std::printf("%-20s %-10s %-40s %s\n", p->id.c_str(), p->version.c_str(), join(p->interfaces).c_str(),
                            p->file.string().c_str());
        }
        std::fflush(stdout);
        for (const auto& r : scanned.refused) std::cerr << "stand: refused " << r.file.string() << ": " << r.reason << "\n";
    }
    return scanned.refused.empty() ? kExitOk : kExitPluginRefused;
}

}  // namespace stand::cli
