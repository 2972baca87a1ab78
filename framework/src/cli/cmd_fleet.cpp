#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/ssh_args.hpp"
#include "fleet/delay_line.hpp"
#include "fleet/fleet_error.hpp"
#include "fleetrun/collect.hpp"
#include "fleetrun/link_shaping.hpp"
#include "report/run_report.hpp"
#include "fleet/host_facts.hpp"
#include "fleet/remote_stand.hpp"
#include "fleet/wall_clock.hpp"
#include "fleet/ssh_session.hpp"
#include "text/number_format.hpp"

#include <boost/json.hpp>

#include <unistd.h>

#include <ctime>
#include <iostream>

namespace stand::cli {
namespace {

namespace json = boost::json;

const char* kHelp = R"(usage: stand fleet push HOST... [--force] [--plugin-path DIR]... [ssh options]
       stand fleet check HOST... [--json] [ssh options]
       stand fleet collect RUN_DIR [ssh options]
       stand fleet facts
       stand fleet clock
       stand fleet delay-line INTERFACE rtt=DURATION[,jitter=DURATION][,loss=PCT%]

Hosts for runs on more than one machine, reached with the system's OpenSSH
client (one multiplexed connection per host, BatchMode: keys or an agent,
never a password; host keys checked against known_hosts).

  push    installs this stand binary and the plugins of the search path into
          ~/.stand/stand-VERSION-BUILD/ on each host (debug info stripped);
          nothing is sent when that build is there already (--force: again)
  check   per host: its stand's version, plugin ABI and build, cgroup
          interface, online CPUs, memory, kernel, and its clock's offset to
          this machine's (the exchange with the smallest round trip; the
          offset is exact to within half of it); a host whose stand is not
          this build is named with what to run
  collect for a run on hosts (stand run --host) whose connection to a host
          dropped: the host's stand goes on there; once it has ended, its
          run directory is copied back into RUN_DIR/hosts/NAME and the
          report is written again with its repetitions (a host still
          running is named: collect again later)
  facts   (run on a host by check) this machine's facts as JSON
  clock   (run on a host by check) answers each line on stdin with its
          CLOCK_REALTIME in nanoseconds
  delay-line (run on a generator by `stand load --link` where the kernel has
          no netem qdisc; root) delays and drops the packets routed to its
          TUN device as declared and sends them out of INTERFACE; prints
          "delay-line DEVICE" once up, and ends with its stdin, SIGINT or
          SIGTERM, taking the device (and routes through it) with it

HOST is NAME=ssh://USER@ADDRESS[:PORT] or ssh://USER@ADDRESS[:PORT]; NAME is
1 to 64 letters, digits, '_' or '-' (default: the address).

ssh options:
  --ssh-config FILE       pass -F FILE to ssh (default: your ~/.ssh/config)
  --accept-new-host-key   accept a key not yet in known_hosts
                          (StrictHostKeyChecking=accept-new); a changed key is
                          refused whatever this says

Exit: 0 every host ok (collect: every host's run is in RUN_DIR), 1 a host
failed or still runs (named on stderr), 2 usage error.
)";

std::vector<OptionSpec> fleet_options() {
    std::vector<OptionSpec> specs{{"help"}, {"json"}, {"force"}, plugin_path_option()};
    for (auto& o : ssh_option_specs()) specs.push_back(std::move(o));
    return specs;
}

std::vector<fleet::SshTarget> hosts_of(const Args& args, std::size_t first) {
    const auto& pos = args.positionals();
    if (pos.size() <= first) throw UsageError("fleet " + pos.front() + ": name at least one HOST (ssh://USER@ADDRESS)");
    std::vector<fleet::SshTarget> hosts;
    for (std::size_t i = first; i < pos.size(); ++i) {
        try {
            hosts.push_back(fleet::parse_host_arg(pos[i]));
        } catch (const fleet::FleetError& e) {
            throw UsageError(std::string("fleet: ") + e.what());
        }
    }
    return hosts;
}

int push_hosts(const Args& args) {
    std::vector<std::filesystem::path> plugins;
    for (const auto& p : plugin_search(args).scan().plugins) plugins.push_back(p->file);
    int failed = 0;
    for (const auto& host : hosts_of(args, 1)) {
        try {
            fleet::SshSession session(host, ssh_options(args));
            const auto r = fleet::push(session, plugins, args.flag("force"));
            if (r.already_there) std::cout << host.name << ": ~/" << r.dir << " is there already (--force sends it again)\n";
            else
                std::cout << host.name << ": installed ~/" << r.dir << " (stand and " << r.plugins << " plugins, "
                          << text::PrintfFormat("%.1f").apply(static_cast<double>(r.bytes_sent) / (1 << 20)) << " MiB)\n";
        } catch (const fleet::FleetError& e) {
            std::cerr << "stand: fleet push: " << e.what() << "\n";
            ++failed;
        }
    }
    return failed == 0 ? kExitOk : kExitFailed;
}

std::string text_of(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) return "?";
    return v->is_string() ? std::string(v->get_string()) : json::serialize(*v);
}

void print_check(const fleet::SshTarget& host, const fleet::HostCheck& c) {
    if (!c.problem.empty()) {
        std::cout << host.name << ": not usable: " << c.problem << "\n";
        return;
    }
    const json::object& stand = c.facts.at("stand").as_object();
    const json::object* machine = c.facts.at("machine").if_object();
    std::cout << host.name << " (" << host.url() << "): stand " << text_of(stand, "version") << " (ABI "
              << text_of(stand, "abi") << ", build " << text_of(stand, "build_id").substr(0, 12) << "), cgroup "
              << text_of(c.facts, "cgroup") << ", CPUs " << text_of(c.facts, "cpus_online") << ", "
              << (machine ? text_of(*machine, "ram_mib") : "?") << " MiB, kernel "
              << (machine ? text_of(*machine, "kernel") : "?") << ", clock offset "
              << text::PrintfFormat("%+.3f").apply(static_cast<double>(c.clock.offset_ns) / 1e6) << " ms ± "
              << text::PrintfFormat("%.3f").apply(static_cast<double>(c.clock.uncertainty_ns) / 1e6) << " ms\n";
}

int check_hosts(const Args& args) {
    json::array out;
    int failed = 0;
    for (const auto& host : hosts_of(args, 1)) {
        fleet::HostCheck c;
        try {
            fleet::SshSession session(host, ssh_options(args));
            c = fleet::check(session);
        } catch (const fleet::FleetError& e) {
            c.problem = e.what();
        }
        if (!c.problem.empty()) ++failed;
        if (args.flag("json"))
            out.push_back(json::object{{"name", host.name}, {"url", host.url()}, {"ok", c.problem.empty()},
                                       {"problem", c.problem}, {"facts", c.facts},
                                       {"clock_offset_ns", c.clock.offset_ns},
                                       {"clock_uncertainty_ns", c.clock.uncertainty_ns},
                                       {"clock_samples", c.clock.samples}});
        else print_check(host, c);
        if (!c.problem.empty() && !args.flag("json")) std::cerr << "stand: fleet check: " << c.problem << "\n";
    }
    if (args.flag("json")) std::cout << json::serialize(json::object{{"hosts", std::move(out)}}) << "\n";
    return failed == 0 ? kExitOk : kExitFailed;
}

int collect_run(const Args& args) {
    args.expect_positionals(2, 2, "one RUN_DIR after collect");
    const std::filesystem::path run_dir = args.positionals()[1];
    int pending = 0;
    bool collected = false;
    std::vector<fleetrun::CollectedHost> hosts;
    try {
        hosts = fleetrun::collect_fleet_run(run_dir, ssh_options(args));
    } catch (const fleet::FleetError& e) {
        std::cerr << "stand: fleet collect: " << e.what() << "\n";
        return kExitUsage;
    }
    for (const auto& c : hosts) {
        using State = fleetrun::CollectedHost::State;
        switch (c.state) {
            case State::was_there: std::cout << c.name << ": its run is in " << run_dir.string() << " already\n"; break;
            case State::collected:
                std::cout << c.name << ": collected into " << fleetrun::host_dir(run_dir, c.name).string() << "\n";
                collected = true;
                break;
            case State::still_running:
                std::cerr << "stand: fleet collect: " << c.name << ": its run still goes on there; collect again later\n";
                ++pending;
                break;
            case State::failed:
                std::cerr << "stand: fleet collect: " << c.name << ": " << c.problem << "\n";
                ++pending;
                break;
        }
    }
    if (collected) {
        const auto files = report::write_run_report(run_dir);
        std::cout << "summary: " << files.summary_md.string() << "\n";
    }
    return pending == 0 ? kExitOk : kExitFailed;
}

int answer_clock() {
    std::string line;
    while (std::getline(std::cin, line)) std::cout << fleet::wall_ns() << std::endl;
    return kExitOk;
}

int run_delay_line(const Args& args) {
    args.expect_positionals(3, 3, "INTERFACE and rtt=...[,jitter=...][,loss=...%] after delay-line");
    fleetrun::LinkPlan plan;
    try {
        plan = fleetrun::parse_link_plan(args.positionals()[2]);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("fleet delay-line: ") + e.what());
    }
    if (plan.rate_bits) throw UsageError("fleet delay-line: a rate is tbf's (stand load --link puts it on the interface)");
    return fleet::run_delay_line({args.positionals()[1], plan.rtt, plan.jitter, plan.loss_pct}, STDIN_FILENO, std::cout) == 0
               ? kExitOk
               : kExitFailed;
}

}  // namespace

int run_fleet(const std::vector<std::string>& argv) {
    Args args("fleet", argv, fleet_options());
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    if (args.positionals().empty()) throw UsageError("fleet: name a subcommand: push, check, collect, facts or clock (see stand fleet --help)");
    const std::string& sub = args.positionals().front();
    if (sub == "push") return push_hosts(args);
    if (sub == "check") return check_hosts(args);
    if (sub == "collect") return collect_run(args);
    if (sub == "facts") {
        args.expect_positionals(1, 1, "nothing after facts");
        std::cout << json::serialize(fleet::own_facts()) << "\n";
        return kExitOk;
    }
    if (sub == "clock") {
        args.expect_positionals(1, 1, "nothing after clock");
        return answer_clock();
    }
    if (sub == "delay-line") return run_delay_line(args);
    throw UsageError("fleet: unknown subcommand '" + sub + "' (push, check, collect, facts, clock, delay-line)");
}

}  // namespace stand::cli
