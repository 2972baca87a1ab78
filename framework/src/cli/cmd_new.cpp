#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "scaffold/adapter_project.hpp"

#include <iostream>

namespace stand::cli {
namespace {

const char* kHelp = R"(usage: stand new adapter NAME --interface panel|proxy|probe [--dir DIR]

Writes a standalone adapter project into DIR (default ./NAME; it must not
exist or be empty): a CMakeLists.txt that finds the installed SDK and its kit
(find_package(StandSDK COMPONENTS panel_kit|proxy_kit|probe_kit)), one plugin
source on that kit, a `compat` build target that runs `stand compat` on the
plugin, and a README saying what to fill in.

  panel   a panel adapter on panel-kit (PanelLifecycle, AdminApi, credentials),
          with a small test double of a panel (double/, to replace with the
          real panel) that the stand.panel/1 checks run against
  proxy   a reverse proxy on proxy-kit's ProxyPlugin, driving the installed
          nginx until you put your proxy in (the stand.proxy/1 checks)
  probe   a stand.probe/1 probe with probe-kit: one real measurement, a
          write and its fdatasync in a folder on a disk

NAME is the plugin id: 1-64 characters of a-z 0-9 . _ -, starting with a
letter. Build it against an SDK installed with
`cmake --install BUILD --prefix PREFIX --component sdk`:
  cmake -S DIR -B DIR/build -DCMAKE_PREFIX_PATH=PREFIX && cmake --build DIR/build
  cmake --build DIR/build --target compat
CONTRIBUTING.md, "Writing an adapter outside this repository", walks through it.

Exit: 0 written, 1 a file could not be written, 2 a bad name, interface or folder.
)";

}  // namespace

int run_new(const std::vector<std::string>& argv) {
    if (argv.empty() || argv.front() == "--help" || argv.front() == "-h") {
        (argv.empty() ? std::cerr : std::cout) << kHelp;
        return argv.empty() ? kExitUsage : kExitOk;
    }
    if (argv.front() != "adapter")
        throw UsageError("new: unknown kind '" + argv.front() + "' (stand new adapter NAME --interface ...)");
    Args args("new adapter", {argv.begin() + 1, argv.end()}, {{"help"}, {"interface", true}, {"dir", true}});
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    args.expect_positionals(1, 1, "the adapter's name");
    const auto interface = args.value("interface");
    if (!interface) throw UsageError("new adapter: --interface panel|proxy|probe is required");
    const std::string name = args.positionals()[0];
    const std::filesystem::path dir = args.value("dir").value_or(name);
    std::vector<std::filesystem::path> written;
    try {
        written = scaffold::write_adapter_project(name, *interface, dir);
    } catch (const scaffold::ScaffoldError& e) {
        throw UsageError(std::string("new adapter: ") + e.what());
    } catch (const std::filesystem::filesystem_error& e) {
        std::cerr << "stand: new adapter: " << e.what() << "\n";
        return kExitFailed;
    }
    std::cout << "wrote a " << *interface << " adapter '" << name << "' into " << dir.string() << "/:\n";
    for (const auto& f : written) std::cout << "  " << f.string() << "\n";
    const std::string d = dir.string();
    std::cout << "next (README.md says what to fill in):\n"
              << "  cmake -S " << d << " -B " << d << "/build -DCMAKE_PREFIX_PATH=<the SDK's install prefix>\n"
              << "  cmake --build " << d << "/build\n"
              << "  cmake --build " << d << "/build --target compat\n";
    return kExitOk;
}

}  // namespace stand::cli
