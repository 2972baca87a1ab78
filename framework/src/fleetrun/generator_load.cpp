#include "fleetrun/generator_load.hpp"

#include "fleet/fleet_error.hpp"
#include "fleet/remote_process.hpp"
#include "fleet/wall_clock.hpp"

#include <boost/json/parse.hpp>

#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include <unistd.h>

namespace stand::fleetrun {
namespace {

namespace json = boost::json;

std::string remote_root() {
    return ".stand/loads/load-" + std::to_string(fleet::wall_ns()) + "-" + std::to_string(::getpid());
}

std::string unix_seconds(std::int64_t ns) {
    char text[40];
    std::snprintf(text, sizeof text, "%lld.%09lld", static_cast<long long>(ns / 1'000'000'000),
                  static_cast<long long>(ns % 1'000'000'000));
    return text;
}

std::string args_file_text(const std::vector<std::string>& args) {
    std::string text;
    for (const auto& a : args) text += a + "\n";
    return text;
}

std::string rate_text(double rate) {
    char text[40];
    std::snprintf(text, sizeof text, "%.6f", rate);
    return text;
}

std::vector<std::string> load_command(const GeneratorOutcome& g, const std::string& root) {
    std::vector<std::string> argv{fleet::install_dir() + "/bin/stand", "load", "--start-at",
                                  unix_seconds(g.start_at_host_ns), "--histogram-out", root + "/histograms.json", "--json"};
    if (g.rate > 0) argv.insert(argv.end(), {"--rate", rate_text(g.rate)});
    if (g.max_requests > 0) argv.insert(argv.end(), {"--requests", std::to_string(g.max_requests)});
    argv.insert(argv.end(), {"--args-file", root + "/args"});
    return fleet::launched(root + "/pid", argv);
}

// Its stand.load/1 line, or the last lines it printed otherwise.
void read_output(const fleet::SshSession& session, const std::vector<std::string>& argv, GeneratorOutcome& g,
                 const std::atomic<bool>& interrupted) {
    std::deque<std::string> last;
    fleet::RemoteInterrupter interrupter(session, interrupted);
    g.exit_code = session.stream(argv, [&](const std::string& line) {
        if (const long pid = fleet::remote_pid_of(line)) return interrupter.set_pid(pid);
        if (line.starts_with("{\"schema\":\"stand.load/1\"")) {
            boost::system::error_code ec;
            const json::value v = json::parse(line, ec);
            if (!ec && v.is_object()) return void(g.result = v.as_object());
        }
        last.push_back(line);
        if (last.size() > 3) last.pop_front();
    });
    if (g.result.empty()) {
        g.problem = "its stand load printed no result (exit " + std::to_string(g.exit_code) + ")";
        for (const auto& line : last) g.problem += "; " + line;
    }
}

void fetch_histograms(const fleet::SshSession& session, const std::string& root, GeneratorOutcome& g) {
    const auto r = session.run({"cat", root + "/histograms.json"}, {}, std::chrono::seconds(120));
    if (r.exit_code != 0) {
        g.problem = "its histograms did not come back from ~/" + root + "/histograms.json: " + fleet::last_line(r.err);
        return;
    }
    try {
        g.histograms = load::histogram_set_from_json(json::parse(r.out));
    } catch (const std::exception& e) {
        g.problem = "its histograms (~/" + root + "/histograms.json) are not readable: " + e.what();
    }
}

void run_one(const fleet::SshSession& session, const std::string& root, GeneratorOutcome& g,
             const std::atomic<bool>& interrupted) {
    try {
        read_output(session, load_command(g, root), g, interrupted);
        if (g.problem.empty()) fetch_histograms(session, root, g);
    } catch (const std::exception& e) {
        g.problem = std::string(e.what()) + " (its load may go on there until its duration ends)";
    }
}

// The request files (a header may hold a token) go, whatever happened.
void remove_files(const fleet::SshSession& session, const std::string& root) {
    try {
        session.run({"rm", "-rf", root}, {}, std::chrono::seconds(30));
    } catch (const std::exception&) {
        // The connection is gone: ~/.stand/loads is readable by the host's user alone (mode 0600 files).
    }
}

// The median TCP connect time to the target from the host, in µs.
std::int64_t connect_rtt_us(const fleet::SshSession& session, const std::string& root) {
    const auto r = session.run({fleet::install_dir() + "/bin/stand", "load", "--json", "--args-file", root + "/probe-args"},
                               {}, std::chrono::seconds(120));
    boost::system::error_code ec;
    const json::value v = json::parse(r.out, ec);
    const json::value* p50 = nullptr;
    if (!ec && v.is_object())
        if (const auto* connect = v.as_object().if_contains("connect_us"); connect && connect->is_object())
            p50 = connect->as_object().if_contains("p50");
    if (r.exit_code != 0 || p50 == nullptr || !p50->is_number())
        throw fleet::FleetError("host " + session.target().name + ": the RTT probe (connects to the target) failed: " +
                                fleet::last_line(r.err.empty() ? r.out : r.err));
    return p50->to_number<std::int64_t>();
}

// The qdisc on, the RTT measured before and after; throws FleetError (nothing left on).
std::unique_ptr<ShapedLink> shape(const fleet::SshSession& session, const std::string& root,
                                  const GeneratorLoadRequest& request, GeneratorOutcome& g) {
    fleet::upload_private_file(session, root + "/probe-args", args_file_text(request.probe_args));
    const std::int64_t before = connect_rtt_us(session, root);
    auto link = std::make_unique<ShapedLink>(session, request.target_address, *request.link);
    const std::int64_t measured = connect_rtt_us(session, root);
    g.net = {{"planned", link_plan_json(*request.link)},
             {"interface", link->interface()},
             {"applied_with", link->applied_with()},
             {"rtt_before_us", before},
             {"rtt_measured_us", measured},
             {"as_planned", rtt_as_planned(*request.link, before, measured)},
             {"removed", false}};
    return link;
}

// The qdisc put on and taken off again at once, so that a host that cannot
// take it (no route, a qdisc of its own, a kernel without it, no root) is
// named before any host sends anything.
void try_qdisc(const fleet::SshSession& session, const GeneratorLoadRequest& request) {
    ShapedLink trial(session, request.target_address, *request.link);
    if (const auto problem = trial.take_off(); !problem.empty())
        throw fleet::FleetError("host " + session.target().name + ": " + problem);
}

}  // namespace

std::vector<std::string> rtt_probe_args(const std::string& url, const std::vector<std::string>& extra) {
    std::vector<std::string> args{"--keepalive", "off", "--connections", "1", "--threads", "1", "--requests", "10",
                                  "--duration", "60s"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(url);
    return args;
}

GeneratorLoadResult run_on_generators(const std::vector<const CheckedHost*>& hosts, const GeneratorLoadRequest& request,
                                      const std::atomic<bool>& interrupted) {
    GeneratorLoadResult result;
    const std::string root = remote_root();
    std::vector<std::size_t> ready;
    std::vector<std::unique_ptr<ShapedLink>> links(hosts.size());
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        GeneratorOutcome g;
        g.name = hosts[i]->session->target().name;
        g.url = hosts[i]->session->target().url();
        g.clock = hosts[i]->check.clock;
        try {
            fleet::upload_private_file(*hosts[i]->session, root + "/args", args_file_text(request.load_args));
            if (request.link) try_qdisc(*hosts[i]->session, request);
            ready.push_back(i);
        } catch (const fleet::FleetError& e) {
            g.problem = e.what();
        }
        result.generators.push_back(std::move(g));
    }
    // Only once every host can take it: the probes send connects to the target.
    if (request.link && ready.size() == hosts.size()) {
        ready.clear();
        for (std::size_t i = 0; i < hosts.size(); ++i) {
            try {
                links[i] = shape(*hosts[i]->session, root, request, result.generators[i]);
                ready.push_back(i);
            } catch (const fleet::FleetError& e) {
                result.generators[i].problem = e.what();
            }
        }
    }
    if (ready.size() != hosts.size()) {  // one generator short would change the load: none starts
        for (std::size_t i = 0; i < hosts.size(); ++i) {
            if (links[i]) result.generators[i].net_problem = links[i]->take_off();
            remove_files(*hosts[i]->session, root);
        }
        return result;
    }
    result.started = true;
    const std::size_t n = ready.size();
    result.start_at_ns = fleet::wall_ns() + std::chrono::nanoseconds(request.lead).count();
    for (std::size_t k = 0; k < n; ++k) {
        auto& g = result.generators[ready[k]];
        g.rate = request.rate / static_cast<double>(n);
        g.max_requests = request.max_requests / n + (k < request.max_requests % n ? 1 : 0);
        g.start_at_host_ns = result.start_at_ns + g.clock.offset_ns;
    }
    std::vector<std::thread> threads;
    for (const std::size_t i : ready)
        threads.emplace_back([&, i] { run_one(*hosts[i]->session, root, result.generators[i], interrupted); });
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        remove_files(*hosts[i]->session, root);
        if (!links[i]) continue;
        auto& g = result.generators[i];
        g.net_problem = links[i]->take_off();
        g.net["removed"] = g.net_problem.empty();
        if (auto counts = links[i]->delay_line_counts(); !counts.empty()) g.net["delay_line"] = std::move(counts);
    }
    return result;
}

}  // namespace stand::fleetrun
