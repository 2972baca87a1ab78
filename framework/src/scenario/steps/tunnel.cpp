// Hysteria 2 tunnels: tunnel_throughput (one tunnel, downloads and probes,
// with a step alongside) and many_clients (a tunnel per client).
#include "scenario/steps/tunnel.hpp"

#include "detect/box_cpu.hpp"
#include "hysteria/hysteria_link.hpp"
#include "scenario/steps/rep_context.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"
#include "scenario/steps/tunnel_support.hpp"
#include "tunnel/tunnel_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

namespace stand::scenario::steps {
namespace {

using std::chrono::milliseconds;
using Deadline = RepClock::time_point;

TunnelSource read_tunnel_source(const ObjectReader& r) {
    TunnelSource source;
    // "" (as a parameter's default) means the same as no "server": the link
    // comes from a user's subscription.
    if (const auto* v = r.find("server"); v != nullptr && !(v->is_string() && v->as_string().empty())) {
        const std::string text = expect_string(*v, r.at("server"), true);
        try {
            hysteria::parse_hysteria_link(text);
        } catch (const hysteria::LinkError& e) {
            r.at("server").fail(std::string("a hysteria2:// link (") + e.what() + ")", v);
        }
        source.server = text;
    }
    if (auto v = r.string("sink")) {
        if (v->find(':') == std::string::npos) r.at("sink").fail("host:port", r.find("sink"));
        source.sink = *v;
    }
    if (auto v = r.string("cc")) {
        if (*v != "bbr" && *v != "cubic" && *v != "bbr2" && *v != "reno")
            r.at("cc").fail("one of bbr, cubic, bbr2, reno", r.find("cc"));
        source.cc = *v;
    }
    return source;
}

StepAction read_tunnel(const ObjectReader& r, const StepParseContext& ctx) {
    TunnelStep step;
    step.source = read_tunnel_source(r);
    if (auto v = r.uint("user", 0, step_keys::kMaxUsers - 1)) step.source.user = static_cast<std::uint32_t>(*v);
    if (auto v = r.uint("streams", 1, 1024)) step.streams = static_cast<std::uint32_t>(*v);
    if (r.find("duration_s")) step.duration = step_keys::duration(r);
    if (auto v = r.uint("probe_interval_ms", 1, step_keys::kMaxIntervalMs)) step.probe_interval = milliseconds(*v);
    if (auto v = r.positive("below_mbit", 1e6)) step.below_mbit = *v;
    if (auto v = r.positive("during_after_s", step_keys::kMaxDurationS)) {
        if (!r.find("during"))
            r.at("during_after_s").fail("no during_after_s without \"during\"", r.find("during_after_s"));
        if (*v >= step.duration.count())
            r.at("during_after_s").fail("a number of seconds less than duration_s", r.find("during_after_s"));
        step.during_after = Seconds(*v);
    }
    if (const auto* during = r.find("during")) {
        Step inner = ctx.parse_step(*during, r.at("during"));
        if (inner.action.holds<TunnelStep>() || inner.action.holds<ManyClientsStep>())
            r.at("during").key("step").fail("a step that is not a tunnel (one tunnel at a time)",
                                            during->as_object().if_contains("step"));
        step.during = std::make_shared<const Step>(std::move(inner));
    }
    return step;
}

// The step lasts as long as the longer of the two.
milliseconds tunnel_timeout(const StepAction& a, milliseconds base) {
    const auto& tunnel = a.get<TunnelStep>();
    if (!tunnel.during) return base;
    const auto inner_end = std::chrono::duration_cast<milliseconds>(tunnel.during_after) + tunnel.during->timeout;
    return std::max(base, inner_end + milliseconds(30'000));
}

// many_clients first fetches every client's subscription (its link): up to
// a second each on a loaded panel, before the window starts.
milliseconds many_clients_timeout(const StepAction& a, milliseconds base) {
    return base + milliseconds(1000) * static_cast<long long>(a.get<ManyClientsStep>().clients);
}

StepAction read_many_clients(const ObjectReader& r, const StepParseContext&) {
    ManyClientsStep step;
    step.source = read_tunnel_source(r);
    if (auto v = r.uint("clients", 1, step_keys::kMaxUsers)) step.clients = static_cast<std::uint32_t>(*v);
    if (r.find("duration_s")) step.duration = step_keys::duration(r);
    if (auto v = r.positive("ramp_s", step_keys::kMaxDurationS)) step.ramp = Seconds(*v);
    if (auto v = r.positive("every_s", step_keys::kMaxDurationS)) step.every = Seconds(*v);
    if (step.ramp >= step.duration) r.at("ramp_s").fail("a number of seconds less than duration_s", r.find("ramp_s"));
    return step;
}

hysteria::HysteriaLink tunnel_link(RepContext& ctx, const Step& s, const TunnelSource& source, std::uint32_t user) {
    try {
        if (!source.server.empty()) return hysteria::parse_hysteria_link(source.server);
        if (user >= ctx.users.size())
            throw StepFailure("step " + s.name + " uses user " + std::to_string(user) + " but " +
                              std::to_string(ctx.users.size()) +
                              " users exist: add a create_users step before it, or give \"server\"");
        const RepUser& u = ctx.users[user];
        return hysteria_link_of(ctx.http, u.subscription, "user " + std::to_string(user) + " (" + u.id + ")");
    } catch (const StepFailure&) {
        throw;
    } catch (const std::exception& e) {
        throw StepFailure("step " + s.name + ": " + e.what());
    }
}

std::string tunnel_sink(RepContext& ctx, const Step& s, const TunnelSource& source) {
    if (!source.sink.empty()) return source.sink;
    if (ctx.env.backend == nullptr)
        throw StepFailure("step " + s.name + " needs a sink: give \"sink\" or a top-level \"backend\" (its /zero and /small)");
    return ctx.env.backend->host() + ":" + std::to_string(ctx.env.backend->port());
}

std::optional<sampler::WindowStats> window_metrics(RepContext& ctx, const Step& s, RepClock::time_point t0,
                                                   RepClock::time_point t1, double mbit) {
    auto w = ctx.window(t0, t1, s.name);
    if (!w) return w;
    if (w->cpu_pct) {
        ctx.put(s.name + ".box_cpu_pct", *w->cpu_pct);
        // Below 1 % of a core the box did not carry the tunnel; a ratio
        // over that would be a huge, meaningless number.
        if (mbit > 0 && *w->cpu_pct >= 1.0) {
            ctx.put(s.name + ".mbit_per_cpu_s", mbit / (*w->cpu_pct / 100.0));
        } else if (mbit > 0) {
            char pct[32];
            std::snprintf(pct, sizeof pct, "%.2f", *w->cpu_pct);
            ctx.record.finding(detect::Finding{
                "tunnel-outside-box", ctx.scope(s),
                "the box used " + std::string(pct) + " % of a core while " + std::to_string(std::lround(mbit)) +
                    " Mbit/s went through the tunnel: the Hysteria server is not in the box, so there is no Mbit per "
                    "box CPU-second"});
        }
    }
    if (w->anon) ctx.put(s.name + ".anon_mean_mib", w->anon->mean / 1048576.0);
    if (w->mem_current) ctx.put(s.name + ".mem_max_mib", static_cast<double>(w->mem_current->max) / 1048576.0);
    return w;
}

tunnel::TunnelSpec tunnel_spec(RepContext& ctx, const Step& s, const TunnelStep& a) {
    tunnel::TunnelSpec spec;
    spec.link = tunnel_link(ctx, s, a.source, a.source.user);
    spec.sink = tunnel_sink(ctx, s, a.source);
    spec.streams = a.streams;
    spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(a.duration);
    spec.probe_interval = a.probe_interval;
    spec.below_mbit = a.below_mbit;
    spec.congestion_control = a.source.cc;
    spec.allow_remote = ctx.env.scenario.allow_remote;
    return spec;
}

void record_tunnel(RepContext& ctx, const Step& s, const tunnel::TunnelResult& result, RepClock::time_point t0,
                   RepClock::time_point t1, const std::vector<box::BoxProcess>& processes_before) {
    ctx.record.loads[s.name] = result.to_json();
    put_tunnel_metrics([&ctx](const std::string& k, double v) { ctx.put(k, v); }, s.name, result);
    ctx.record_process_changes(s, processes_before);
    ctx.check_aliasing(s, {"the small request", result.probe_interval_ms, result.probes_sent},
                       window_metrics(ctx, s, t0, t1, result.mbit_mean));
    if (result.streams_dropped > 0 || result.reconnects > 0 || result.connection_losses > 0)
        ctx.record.finding(detect::Finding{
            "tunnel-disrupted", ctx.scope(s),
            std::to_string(result.streams_dropped) + " stream(s) dropped, " + std::to_string(result.connection_losses) +
                " connection loss(es), " + std::to_string(result.reconnects) + " reconnect(s)" +
                first_error(result.loss_reasons)});
}

// The tunnel runs on its own thread; a `during` step runs here alongside
// it. A failure of either is reported after both ended, with the other's
// metrics kept.
void run_tunnel(RepContext& ctx, const Step& s, Deadline) {
    const auto& a = s.action.get<TunnelStep>();
    const tunnel::TunnelSpec spec = tunnel_spec(ctx, s, a);
    tunnel::TunnelHooks hooks;
    hooks.stop = &ctx.env.interrupted;
    const auto processes_before = ctx.measured_processes();
    std::optional<tunnel::TunnelResult> result;
    std::string tunnel_error;
    const auto t0 = RepClock::now();
    std::thread runner([&] {
        try {
            result = tunnel::run_tunnel(spec, hooks);
        } catch (const std::exception& e) {
            tunnel_error = e.what();
        }
    });
    std::optional<StepFailure> inner_failure;
    if (a.during) {
        try {
            ctx.sleep_for(a.during_after);
            ctx.run_nested(*a.during);
        } catch (const StepFailure& e) {
            inner_failure = e;
        }
    }
    runner.join();
    const auto t1 = RepClock::now();
    if (!tunnel_error.empty()) throw StepFailure("step " + s.name + ": " + tunnel_error);
    record_tunnel(ctx, s, *result, t0, t1, processes_before);
    if (result->bytes == 0)
        throw StepFailure("step " + s.name + ": no byte came through the tunnel" +
                          (result->warnings.empty() ? std::string() : " (" + result->warnings.front() + ")"));
    if (inner_failure) throw *inner_failure;
}

// Each client's link is its user's subscription, fetched before the window:
// timed apart from it (the step's default timeout allows for it).
std::vector<hysteria::HysteriaLink> client_links(RepContext& ctx, const Step& s, const ManyClientsStep& a) {
    std::vector<hysteria::HysteriaLink> links;
    const auto t0 = RepClock::now();
    for (std::uint32_t i = 0; i < a.clients; ++i) {
        if (a.source.server.empty() && i >= ctx.users.size())
            throw StepFailure("step " + s.name + " wants " + std::to_string(a.clients) +
                              " clients, each with its own user, but " + std::to_string(ctx.users.size()) +
                              " users exist");
        links.push_back(tunnel_link(ctx, s, a.source, i));
    }
    ctx.put(s.name + ".links_s", std::chrono::duration<double>(RepClock::now() - t0).count());
    return links;
}

void run_many_clients(RepContext& ctx, const Step& s, Deadline) {
    const auto& a = s.action.get<ManyClientsStep>();
    tunnel::ManyClientsSpec spec;
    spec.links = client_links(ctx, s, a);
    spec.sink = tunnel_sink(ctx, s, a.source);
    spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(a.duration);
    spec.ramp = std::chrono::duration_cast<std::chrono::nanoseconds>(a.ramp);
    spec.every = std::chrono::duration_cast<std::chrono::nanoseconds>(a.every);
    spec.congestion_control = a.source.cc;
    spec.allow_remote = ctx.env.scenario.allow_remote;
    const auto t0 = RepClock::now();
    tunnel::ManyClientsResult r;
    try {
        r = tunnel::run_many_clients(spec, &ctx.env.interrupted);
    } catch (const std::exception& e) {
        throw StepFailure("step " + s.name + ": " + e.what());
    }
    ctx.record.loads[s.name] = r.to_json();
    put_many_clients_metrics([&ctx](const std::string& k, double v) { ctx.put(k, v); }, s.name, r);
    const auto w = window_metrics(ctx, s, t0, RepClock::now(), 0);
    // Clients started over a ramp of one CFS period or more meet every phase between them.
    const auto period = std::chrono::microseconds(detect::box_cpu_of(ctx.env.preface.if_contains("box")).period_us);
    if (spec.ramp < period) {
        const auto per_client = r.clients > 0 ? (r.requests_ok + r.requests_failed) / r.clients : 0;
        ctx.check_aliasing(s, {"each client's request", std::chrono::duration<double, std::milli>(a.every).count(),
                               per_client}, w);
    }
    if (r.handshake_failures > 0 || r.requests_failed > 0 || r.disconnects > 0)
        ctx.record.finding(detect::Finding{
            "tunnel-clients-failed", ctx.scope(s),
            std::to_string(r.handshake_failures) + " of " + std::to_string(r.clients) + " clients failed to connect, " +
                std::to_string(r.requests_failed) + " requests failed, " + std::to_string(r.disconnects) +
                " disconnects" + first_error(r.errors)});
}

const StepKey kServer{"server", "a hysteria2:// or hy2:// link", "absent: a created user's subscription"};
const StepKey kSink{"sink", "host:port", "the scenario's backend"};
const StepKey kCc{"cc", "bbr, cubic, bbr2 or reno", "bbr"};

}  // namespace

const StepKind& tunnel_throughput_kind() {
    static const StepKind k{
        .name = "tunnel_throughput",
        .summary = "one Hysteria 2 tunnel carrying streams downloads and a probe every probe_interval_ms; with during, "
                   "that step runs alongside",
        .interface = "stand.panel/1",
        .keys = {kServer, {"user", "integer", "0"}, kSink, kCc, {"streams", "integer 1..1024", "1"},
                 {"duration_s", "number > 0, at most 86400", "30"}, {"probe_interval_ms", "integer 1..60000", "97"},
                 {"below_mbit", "number > 0", "half the median second"}, {"during", "a step object", "absent"},
                 {"during_after_s", "number < duration_s", "0"}},
        .metrics = {"gbit_s", "mbit_mean", "seconds_below", "probe_p50_ms", "probe_p95_ms", "probe_p99_ms",
                    "probes_failed", "streams_dropped", "reconnects", "reconnect_gap_max_ms", "connection_losses",
                    "handshake_ms", "client_cpu_pct", "box_cpu_pct", "mbit_per_cpu_s", "anon_mean_mib", "mem_max_mib",
                    "processes_replaced"},
        .parse = read_tunnel,
        .duration = step_keys::duration_of<TunnelStep>,
        .timeout_of = tunnel_timeout,
        .nested = [](const StepAction& a) { return a.get<TunnelStep>().during.get(); },
        .run = run_tunnel};
    return k;
}

const StepKind& many_clients_kind() {
    static const StepKind k{
        .name = "many_clients",
        .summary = "clients tunnels, client i with user i's link, connecting over ramp_s, each fetching /small every "
                   "every_s",
        .interface = "stand.panel/1",
        .keys = {{"clients", "integer 1..100000", "400"}, kServer, kSink, kCc,
                 {"duration_s", "number > 0, at most 86400", "60"}, {"ramp_s", "number < duration_s", "20"},
                 {"every_s", "number > 0", "2"}},
        .metrics = {"connected", "handshake_failures", "handshake_p50_ms", "handshake_p95_ms", "requests_ok",
                    "request_failures", "request_p95_ms", "disconnects", "box_cpu_pct", "anon_mean_mib",
                    "mem_max_mib", "client_cpu_pct", "links_s"},
        .parse = read_many_clients,
        .duration = step_keys::duration_of<ManyClientsStep>,
        .timeout_of = many_clients_timeout,
        .run = run_many_clients};
    return k;
}

}  // namespace stand::scenario::steps
