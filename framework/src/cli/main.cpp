// `stand`: the benchmark stand's command-line entry point.
#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/deferred_gnutls.hpp"
#include "cli/exit_codes.hpp"
#include "cli/scenario_run.hpp"
#include "cli/stdout_check.hpp"
#include "isolation/worker_main.hpp"
#include "loader/plugin_loader.hpp"
#include "scenario/plugin_overrides.hpp"
#include "scenario/probe_params_check.hpp"
#include "scenario/scenario_error.hpp"
#include "text/secrets.hpp"
#include "text/user_error.hpp"

#include <stand/version.h>

#include <iostream>
#include <string>
#include <vector>

namespace {

const char* kUsage = R"(usage: stand COMMAND [options]

A benchmark stand: loads adapter plugins through a stable C ABI and measures
the systems they drive.

commands:
  plugins            list the plugins in the search path
  info PLUGIN        print a plugin's descriptor and config schema
  compat PLUGIN      run the compatibility checks of a plugin
  run SCENARIO       run a scenario: repetitions, boxes, samples, load, report
  probe PLUGIN JOB   one probe job without a scenario file (stand probe disk
                     rnd4k-q32t1-read --param dir=/var/tmp), as text or --json
  load URL...        HTTP/1.1 or HTTP/3 load generator (closed or open model)
  tunnel LINK        Hysteria 2 tunnel: throughput of /zero streams, /small
                     probes, dropped streams and reconnects
  report RUN_DIR     regenerate a run's results.json, per_rep.csv, summary.md, report.html
  report --import-per-rep FILE --table-spec SPEC
                     render a Markdown table from per-repetition results
  compare RUN_A RUN_B
                     medians, ratio B/A with its interval, Mann-Whitney U per metric
  backend            HTTP/1.1 and websocket echo backend with counters, for
                     measuring reverse proxies in front of it
  new adapter NAME --interface panel|proxy|probe
                     write a standalone adapter project on the SDK's kits
  fleet push|check HOST...
                     install this stand on hosts over ssh; check their
                     stand, cgroups, CPUs, memory and clock offset

options:
  -h, --help         this text; `stand COMMAND --help` for a command's options
  --version          host version and ABI version

exit codes:
  0 ok, 1 a check or measurement failed, 2 usage error,
  3 a plugin was refused, 4 internal error, 99 a scenario's threshold or a
  compare gate crossed or undecided (stand run, report, compare), 130 interrupted
)";

// `stand COMMAND REST...`: its exit code, every error a message on stderr.
int run_command(const std::string& command, const std::vector<std::string>& rest) {
    using namespace stand::cli;
    try {
        if (command == "-h" || command == "--help" || command == "help") {
            std::cout << kUsage;
            return kExitOk;
        }
        if (command == "--version") {
            std::cout << "stand " << STAND_HOST_VERSION << " (plugin ABI " << STAND_ABI_MAJOR << "." << STAND_ABI_MINOR
                      << ", SDK " << STAND_SDK_VERSION_STRING << ")\n";
            return kExitOk;
        }
        if (command == "plugins") return run_plugins(rest);
        if (command == "info") return run_info(rest);
        if (command == "compat") return run_compat(rest);
        if (command == "run") return run_run(rest);
        if (command == "probe") return run_probe(rest);
        if (command == "load") return run_load(rest);
        if (command == "tunnel") return run_tunnel(rest);
        if (command == "report") return run_report(rest);
        if (command == "compare") return run_compare(rest);
        if (command == "backend") return run_backend(rest);
        if (command == "new") return run_new(rest);
        if (command == "fleet") return run_fleet(rest);
        if (command == "__worker") return stand::isolation::run_worker_main();  // internal: see isolation/
        throw UsageError("unknown command '" + command + "' (see stand --help)");
    } catch (const UsageError& e) {
        std::cerr << "stand: " << stand::text::secrets().scrub(e.what()) << "\n";
        return kExitUsage;
    } catch (const stand::scenario::ScenarioError& e) {
        std::cerr << "stand: " << stand::text::secrets().scrub(e.what()) << "\n";
        return kExitUsage;
    } catch (const stand::scenario::PluginOverrideError& e) {
        std::cerr << "stand: " << stand::text::secrets().scrub(e.what()) << "\n";
        return kExitUsage;
    } catch (const stand::cli::PluginConfigError& e) {
        std::cerr << "stand: refused " << stand::text::secrets().scrub(e.what()) << "\n";
        return kExitUsage;
    } catch (const stand::loader::LoadError& e) {
        std::cerr << "stand: refused " << stand::text::secrets().scrub(e.what()) << "\n";
        return kExitPluginRefused;
    } catch (const stand::scenario::StoppedBeforeRun& e) {
        std::cerr << "stand: " << e.what() << "\n";
        return kExitInterrupted;
    } catch (const stand::text::UserError& e) {
        std::cerr << "stand: " << stand::text::secrets().scrub(e.what()) << "\n";
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cerr << "stand: internal error: " << stand::text::secrets().scrub(e.what()) << "\n";
        return kExitInternal;
    }
}

}  // namespace

int main(int argc, char** argv) {
    using namespace stand::cli;
    defer_gnutls_init(argv);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr << kUsage;
        return kExitUsage;
    }
    const std::string command = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "__worker") return run_command(command, rest);  // a plugin worker: its stdout is the plugin's
    StdoutCheck out;  // output lost (a full disk, /dev/full) is not a success
    return out.finish(run_command(command, rest));
}
