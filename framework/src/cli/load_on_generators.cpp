#include "cli/load_on_generators.hpp"

#include "cli/exit_codes.hpp"
#include "cli/sigint_stop.hpp"
#include "cli/ssh_args.hpp"
#include "fleet/fleet_error.hpp"
#include "fleetrun/link_shaping.hpp"
#include "fleetrun/merged_load.hpp"
#include "host/http/url.hpp"
#include "load/histogram_file.hpp"
#include "load/load_plan.hpp"
#include "text/json_path.hpp"
#include "text/number_format.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <iostream>
#include <set>

namespace stand::cli {
namespace {

namespace json = boost::json;

// Options every generator gets as given (the rest are the controller's).
const char* const kForwardedFlags[] = {"insecure", "tls-resume", "allow-remote", "warmup-once", "http3"};
const char* const kForwardedValues[] = {"threads", "connections", "duration", "timeout", "late",      "slow", "method",
                                        "header",  "ua",          "keepalive", "xff",     "bind-prefix", "streams", "cc",
                                        "udp-batching"};

std::vector<fleet::SshTarget> targets_of(const Args& args, const std::string& option) {
    std::vector<fleet::SshTarget> out;
    for (const auto& v : args.values(option)) {
        try {
            out.push_back(fleet::parse_host_arg(v));
        } catch (const fleet::FleetError& e) {
            throw UsageError("load: --" + option + ": " + e.what());
        }
    }
    return out;
}

std::vector<fleet::SshTarget> generators_of(const Args& args) {
    auto generators = targets_of(args, "generator");
    std::set<std::string> names;
    for (const auto& g : generators)
        if (!names.insert(g.name).second) throw UsageError("load: --generator: the name '" + g.name + "' is given twice");
    return generators;
}

// What every generator runs: the URLs and the forwarded options, and every
// declared host as --host, so the generator's own target rule allows them.
std::vector<std::string> forwarded_args(const Args& args) {
    for (const char* local : {"urls", "cacert"})
        if (args.value(local))
            throw UsageError(std::string("load: --") + local + " with --generator: the file is on this machine, not on the "
                             "generators (give the URLs on the command line; trust the CA on each generator host instead "
                             "of --cacert)");
    std::vector<std::string> out;
    for (const char* flag : kForwardedFlags)
        if (args.flag(flag)) out.push_back(std::string("--") + flag);
    for (const char* option : kForwardedValues)
        for (const auto& v : args.values(option)) out.insert(out.end(), {std::string("--") + option, v});
    for (const char* option : {"host", "generator"})
        for (const auto& v : args.values(option)) out.insert(out.end(), {"--host", v});
    for (const auto& url : args.positionals()) out.push_back(url);
    return out;
}

std::string fixed(double v, const char* format = "%.1f") { return text::PrintfFormat(format).apply(v); }

using text::json_at;
double num(const json::value* v) { return text::json_number(v); }

std::string latency_line(const json::object& summary) {
    auto p = [&](const char* key) { return fixed(num(summary.if_contains(key)) / 1000.0, "%.2f"); };
    return "count " + fixed(num(summary.if_contains("count")), "%.0f") + ", p50 " + p("p50") + " ms, p90 " + p("p90") +
           " ms, p99 " + p("p99") + " ms, p99.9 " + p("p99_9") + " ms, max " + p("max") + " ms";
}

void print_text(const json::object& out) {
    const auto& start = out.at("start").as_object();
    std::cout << "generators started together within " << fixed(num(start.if_contains("spread_us")) / 1000.0, "%.2f")
              << " ms (clock offsets known to ±" << fixed(num(start.if_contains("clock_uncertainty_us")) / 1000.0, "%.2f")
              << " ms)\n";
    for (const auto& gv : out.at("generators").as_array()) {
        const auto& g = gv.as_object();
        const auto& r = g.at("result").as_object();
        std::cout << "  " << g.at("name").as_string().c_str() << ": ";
        if (!g.at("problem").as_string().empty() || r.empty()) {
            std::cout << "failed\n";
            continue;
        }
        std::cout << fixed(num(json_at(r, {"throughput", "requests_per_s"}))) << " responses/s, sent "
                  << fixed(num(json_at(r, {"requests", "sent"})), "%.0f") << ", errors "
                  << fixed(num(json_at(r, {"requests", "errors"})), "%.0f") << ", its CPU "
                  << fixed(num(json_at(r, {"cpu", "percent_of_threads"}))) << " % of its threads"
                  << (num(json_at(r, {"start", "late_us"})) > 0 ? ", started " + fixed(num(json_at(r, {"start", "late_us"})) / 1000.0, "%.2f") + " ms late" : "")
                  << "\n";
        if (const auto* net = g.if_contains("net"); net && net->is_object())
            std::cout << "    --link on " << net->at("interface").as_string().c_str() << " ("
                      << (net->as_object().contains("applied_with") ? net->at("applied_with").as_string().c_str() : "?")
                      << "): planned RTT "
                      << fixed(num(json_at(net->as_object(), {"planned", "rtt_us"})) / 1000.0, "%.2f") << " ms, measured "
                      << fixed(num(json_at(net->as_object(), {"rtt_measured_us"})) / 1000.0, "%.2f") << " ms (before it: "
                      << fixed(num(json_at(net->as_object(), {"rtt_before_us"})) / 1000.0, "%.2f") << " ms)\n";
    }
    const auto& m = out.at("merged").as_object();
    std::cout << "merged (" << fixed(num(m.if_contains("generators")), "%.0f") << " generators; histograms merged slot by slot):\n"
              << "  requests: sent " << fixed(num(json_at(m, {"requests", "sent"})), "%.0f") << ", completed "
              << fixed(num(json_at(m, {"requests", "completed"})), "%.0f") << ", errors "
              << fixed(num(json_at(m, {"requests", "errors"})), "%.0f") << ", late "
              << fixed(num(json_at(m, {"requests", "late"})), "%.0f") << ", unsent "
              << fixed(num(json_at(m, {"requests", "unsent"})), "%.0f") << "\n"
              << "  throughput: " << fixed(num(json_at(m, {"throughput", "requests_per_s"}))) << " responses/s\n";
    if (const auto* all = json_at(m, {"latency_us", "all"}); all && all->is_object())
        std::cout << "  latency: " << latency_line(all->as_object()) << "\n";
    for (const auto& w : out.at("warnings").as_array()) std::cout << "warning: " << w.as_string().c_str() << "\n";
}

// FILE gets the merged histograms, FILE's stem + ".NAME" + its extension each generator's.
void write_histograms(const std::filesystem::path& file, const fleetrun::GeneratorLoadResult& result,
                      const load::HistogramSet& merged) {
    load::write_histogram_file(file, merged);
    for (const auto& g : result.generators)
        if (g.problem.empty())
            load::write_histogram_file(file.parent_path() / (file.stem().string() + "." + g.name + file.extension().string()),
                                       g.histograms);
}

// --link: the plan, the one target host it shapes the way to, and the probe.
void plan_link(const Args& args, const load::LoadSpec& spec, fleetrun::GeneratorLoadRequest& request) {
    const auto text = args.value("link");
    if (!text) return;
    try {
        request.link = fleetrun::parse_link_plan(*text);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("load: ") + e.what());
    }
    for (const auto& link : spec.links) {
        const auto url = host::http::parse_url(link.url, "URL");
        if (!url.host_is_ip) throw UsageError("load: --link needs the target as an IP address, not '" + url.host + "'");
        if (!request.target_address.empty() && url.host != request.target_address)
            throw UsageError("load: --link shapes the way to one target host; the URLs name " + request.target_address +
                             " and " + url.host);
        request.target_address = url.host;
    }
    std::vector<std::string> extra;
    if (spec.tls.insecure) extra.push_back("--insecure");
    for (const char* option : {"host", "generator"})
        for (const auto& v : args.values(option)) extra.insert(extra.end(), {"--host", v});
    request.probe_args = fleetrun::rtt_probe_args(spec.links.front().url, extra);
}

int exit_code_of(const fleetrun::GeneratorLoadResult& result, bool interrupted) {
    bool all_ok = true, any_response = false;
    for (const auto& g : result.generators) {
        all_ok = all_ok && g.problem.empty() && g.exit_code == kExitOk;
        if (const auto* c = json_at(g.result, {"requests", "completed"})) any_response = any_response || num(c) > 0;
    }
    if (interrupted) return kExitInterrupted;
    return all_ok && any_response ? kExitOk : kExitFailed;
}

}  // namespace

std::vector<OptionSpec> generator_options() {
    std::vector<OptionSpec> specs{{"generator", true, true}, {"host", true, true}, {"link", true}};
    for (auto& o : ssh_option_specs()) specs.push_back(std::move(o));
    return specs;
}

std::vector<std::string> declared_host_addresses(const Args& args) {
    std::vector<std::string> out;
    for (const char* option : {"host", "generator"})
        for (const auto& t : targets_of(args, option)) out.push_back(t.address);
    return out;
}

int load_on_generators(const Args& args, const load::LoadSpec& spec) {
    const auto generators = generators_of(args);
    for (const auto& link : spec.links) {
        try {
            load::check_target(link.url, spec);
        } catch (const load::LoadSpecError& e) {
            throw UsageError(std::string("load: ") + e.what());
        }
    }
    if (spec.max_requests > 0 && spec.max_requests < generators.size())
        throw UsageError("load: --requests " + std::to_string(spec.max_requests) + " is fewer than one per generator (" +
                         std::to_string(generators.size()) + ")");
    fleetrun::GeneratorLoadRequest request;
    request.load_args = forwarded_args(args);
    request.rate = spec.model == load::Model::open ? spec.rate : 0;
    request.max_requests = spec.max_requests;
    plan_link(args, spec, request);
    std::vector<fleetrun::CheckedHost> hosts;
    try {
        hosts = fleetrun::open_checked_hosts(generators, ssh_options(args));
    } catch (const fleet::FleetError& e) {
        std::cerr << "stand: load: a generator cannot be used, nothing was sent:\n" << e.what() << "\n";
        return kExitUsage;
    }
    SigintStop sigint;
    std::cerr << "load from " << hosts.size() << " generators, starting in " << request.lead.count() << " s\n";
    std::vector<const fleetrun::CheckedHost*> views;
    for (const auto& h : hosts) views.push_back(&h);
    const auto result = fleetrun::run_on_generators(views, request, SigintStop::flag());
    if (!result.started) {
        std::cerr << "stand: load: a generator could not be made ready, nothing was sent:\n";
        for (const auto& g : result.generators) {
            if (!g.problem.empty()) std::cerr << "  " << g.problem << "\n";
            if (!g.net_problem.empty()) std::cerr << "  " << g.name << ": " << g.net_problem << "\n";
        }
        return kExitUsage;
    }
    const auto merged = fleetrun::merged_histograms(result);
    const json::object out = fleetrun::merged_load_json(result, merged);
    if (const auto file = args.value("histogram-out")) write_histograms(*file, result, merged);
    for (const auto& g : result.generators)
        if (!g.problem.empty()) std::cerr << "stand: load: generator " << g.name << ": " << g.problem << "\n";
    if (args.flag("json")) std::cout << json::serialize(out) << "\n";
    else print_text(out);
    std::cout.flush();
    return exit_code_of(result, SigintStop::flag().load());
}

}  // namespace stand::cli
