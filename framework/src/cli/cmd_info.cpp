#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "text/pretty_json.hpp"

#include <boost/json.hpp>

#include <iostream>

namespace stand::cli {
namespace {

const char* kHelp = R"(usage: stand info PLUGIN [--json] [--plugin-path DIR]...

Prints a plugin's descriptor and config schema. PLUGIN is an id from
`stand plugins` or a path to a .so file. Loads the library and checks it
(ABI, struct sizes, required members, ids) without creating an instance.

Exit: 0 ok, 3 the plugin was refused (the reason is printed).
)";

}  // namespace

int run_info(const std::vector<std::string>& argv) {
    Args args("info", argv, {{"help"}, {"json"}, plugin_path_option()});
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    args.expect_positionals(1, 1, "a plugin id or file (see stand plugins)");
    auto plugin = plugin_search(args).resolve(args.positionals()[0]);

    boost::json::value schema = plugin->config_schema.empty() ? boost::json::value(nullptr)
                                                              : boost::json::parse(plugin->config_schema);
    boost::json::array ifaces;
    for (const auto& i : plugin->interfaces) ifaces.emplace_back(i);
    boost::json::object info{{"id", plugin->id},
                             {"name", plugin->name},
                             {"version", plugin->version},
                             {"description", plugin->description},
                             {"abi", std::to_string(plugin->abi_major) + "." + std::to_string(plugin->abi_minor)},
                             {"min_host_abi_minor", plugin->min_host_abi_minor},
                             {"interfaces", std::move(ifaces)},
                             {"file", plugin->file.string()},
                             {"config_schema", schema}};
    if (args.flag("json")) {
        std::cout << boost::json::serialize(info) << "\n";
        return kExitOk;
    }
    std::cout << plugin->name << " (" << plugin->id << ") " << plugin->version << "\n";
    if (!plugin->description.empty()) std::cout << "  " << plugin->description << "\n";
    std::cout << "  file:        " << plugin->file.string() << "\n";
    std::cout << "  built for:   ABI " << info["abi"].as_string().c_str() << " (needs host minor >= "
              << plugin->min_host_abi_minor << ")\n";
    std::cout << "  interfaces:  ";
    for (std::size_t i = 0; i < plugin->interfaces.size(); ++i) std::cout << (i ? ", " : "") << plugin->interfaces[i];
    std::cout << (plugin->interfaces.empty() ? "none\n" : "\n");
    std::cout << "  config schema:\n    ";
    if (schema.is_null()) std::cout << "(none: the plugin takes no config; pass {})";
    else text::write_pretty_json(std::cout, schema, "    ");
    std::cout << "\n";
    return kExitOk;
}

}  // namespace stand::cli
