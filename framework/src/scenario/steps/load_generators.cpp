#include "scenario/steps/load_generators.hpp"

#include "fleetrun/controller_load.hpp"
#include "fleetrun/generator_load.hpp"
#include "fleetrun/merged_load.hpp"
#include "host/http/url.hpp"
#include "text/json_path.hpp"

#include <algorithm>
#include <charconv>

namespace stand::scenario::steps {
namespace {

namespace json = boost::json;

using text::json_at;
using text::json_number;

std::uint64_t count(const json::value* v) { return v != nullptr && v->is_number() ? v->to_number<std::uint64_t>() : 0; }

// `stand load` options every generator gets, without the URL (the rate
// and the start are fleetrun's).
std::vector<std::string> load_options(const LoadStep& l) {
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(l.duration).count();
    std::vector<std::string> args{"--connections", std::to_string(l.connections), "--threads", std::to_string(l.threads),
                                  "--duration", std::to_string(us) + "us", "--timeout",
                                  std::to_string(l.request_timeout.count()) + "ms", "--keepalive",
                                  l.keepalive ? "on" : "off"};
    for (const auto& h : l.headers) args.insert(args.end(), {"--header", h});
    if (l.warmup_once) args.push_back("--warmup-once");
    return args;
}

// The open hosts the step names, in its order.
std::vector<const fleetrun::CheckedHost*> named_hosts(const RepContext& ctx, const LoadStep& l) {
    if (ctx.env.generators == nullptr) throw StepFailure("this run has no generator hosts open (the scenario's \"generators\")");
    std::vector<const fleetrun::CheckedHost*> out;
    for (const auto& name : l.generators) {
        const auto& all = *ctx.env.generators;
        const auto it = std::find_if(all.begin(), all.end(), [&](const auto& h) { return h.session->target().name == name; });
        if (it == all.end()) throw StepFailure("generator " + name + " is not among the run's open generator hosts");
        out.push_back(&*it);
    }
    return out;
}

// The merged counters as a LoadResult, so the step's metrics and load
// detectors are those of a local load.
load::LoadResult merged_result(const json::object& doc, load::HistogramSet merged, const LoadStep& l) {
    load::LoadResult r;
    const json::object& m = doc.at("merged").as_object();
    r.model = l.rate ? load::Model::open : load::Model::closed;
    r.rate = l.rate.value_or(0);
    r.threads = l.threads;
    r.window_s = l.duration.count();
    r.offered = count(json_at(m, {"requests", "offered"}));
    r.sent = count(json_at(m, {"requests", "sent"}));
    r.completed = count(json_at(m, {"requests", "completed"}));
    r.errors = count(json_at(m, {"requests", "errors"}));
    r.unsent = count(json_at(m, {"requests", "unsent"}));
    r.late = count(json_at(m, {"requests", "late"}));
    r.late_with_free_connection = count(json_at(m, {"requests", "late_with_free_connection"}));
    r.max_queue = count(json_at(m, {"requests", "max_queue_per_generator"}));
    if (const auto* statuses = m.if_contains("status_counts"); statuses && statuses->is_object())
        for (const auto& [code, n] : statuses->as_object()) {
            int status = 0;
            if (std::from_chars(code.data(), code.data() + code.size(), status).ec == std::errc{} && n.is_number())
                r.status_counts[status] = n.to_number<std::uint64_t>();
        }
    for (const auto& g : doc.at("generators").as_array()) {
        const auto* result = g.as_object().if_contains("result");
        if (result == nullptr || !result->is_object() || result->as_object().empty()) continue;
        const json::object& one = result->as_object();
        r.elapsed_s = std::max(r.elapsed_s, json_number(json_at(one, {"elapsed_s"})));
        r.connections_opened += count(json_at(one, {"connections_opened"}));
        r.tls_handshakes += count(json_at(one, {"tls_handshakes", "total"}));
        r.cpu.user_s += json_number(json_at(one, {"cpu", "user_s"}));
        r.cpu.system_s += json_number(json_at(one, {"cpu", "system_s"}));
        r.cpu.cores_used += json_number(json_at(one, {"cpu", "cores_used"}));
    }
    if (r.completed > 0) r.cpu.us_per_request = (r.cpu.user_s + r.cpu.system_s) / static_cast<double>(r.completed) * 1e6;
    r.latency = std::move(merged.latency);
    r.service = std::move(merged.service);
    return r;
}

// The step's record, findings and LoadResult from what the generators
// (or the controller) sent back.
load::LoadResult result_of(RepContext& ctx, const Step& s, const LoadStep& l, const fleetrun::GeneratorLoadResult& result,
                           const char* who) {
    const auto merged = fleetrun::merged_histograms(result);
    json::object doc = fleetrun::merged_load_json(result, merged);
    ctx.record.loads[s.name] = doc;
    for (const auto& w : doc.at("warnings").as_array())
        ctx.record.finding(detect::Finding{"generator-trouble", ctx.scope(s), std::string(w.as_string())});
    if (!result.started)
        throw StepFailure(std::string("load: ") + who + " could not be made ready, nothing was sent (see the findings)");
    if (doc.at("merged").as_object().at("generators").to_number<int>() == 0)
        throw StepFailure(std::string("load: no figures came back from ") + who + " (see the findings)");
    return merged_result(doc, merged, l);
}

}  // namespace

load::LoadResult run_from_generators(RepContext& ctx, const Step& s, const LoadStep& l, const load::LoadSpec& spec) {
    fleetrun::GeneratorLoadRequest request;
    request.load_args = load_options(l);
    if (ctx.env.scenario.allow_remote) request.load_args.push_back("--allow-remote");
    request.load_args.push_back(l.urls.front());
    request.rate = l.rate.value_or(0);
    if (l.link) {
        const auto url = host::http::parse_url(spec.links.front().url, "URL");
        if (!url.host_is_ip) throw StepFailure("link: the generators' target must be an IP address, not '" + url.host + "'");
        request.link = l.link;
        request.target_address = url.host;
        request.probe_args = fleetrun::rtt_probe_args(
            spec.links.front().url,
            ctx.env.scenario.allow_remote ? std::vector<std::string>{"--allow-remote"} : std::vector<std::string>{});
    }
    const auto result = fleetrun::run_on_generators(named_hosts(ctx, l), request, ctx.env.interrupted);
    return result_of(ctx, s, l, result, "a generator");
}

load::LoadResult run_from_controller(RepContext& ctx, const Step& s, const LoadStep& l, const load::LoadSpec& spec) {
    fleetrun::ControllerLoadRequest request;
    request.options = load_options(l);
    for (const auto& link : spec.links) request.urls.push_back(link.url);
    request.rate = l.rate.value_or(0);
    request.allow_remote = ctx.env.scenario.allow_remote;
    // The load's own length and its last requests' timeout, and then time to start and to send the figures back.
    const auto within = std::chrono::ceil<std::chrono::seconds>(l.duration) +
                        std::chrono::ceil<std::chrono::seconds>(l.request_timeout) + std::chrono::seconds(60);
    fleetrun::GeneratorLoadResult result;
    result.started = true;
    result.generators.push_back(ctx.env.controller->load(request, within));
    result.start_at_ns = result.generators.front().start_at_host_ns;
    return result_of(ctx, s, l, result, "the controller");
}

}  // namespace stand::scenario::steps
