#include "scenario/steps/tunnel_run.hpp"

#include "detect/box_cpu.hpp"
#include "host/http/target_resolver.hpp"
#include "scenario/steps/step_kind.hpp"
#include "scenario/steps/tunnel.hpp"
#include "scenario/steps/tunnel_support.hpp"
#include "tunnel/tunnel_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <thread>

namespace stand::scenario::steps {

using Deadline = RepClock::time_point;

namespace {

// The link of created user `user` (its subscription's first hysteria2://
// line) or the source's "server"; StepFailure naming the step, or
// NoHysteriaLink with "if_elsewhere": "skip".
hysteria::HysteriaLink tunnel_link(RepContext& ctx, const Step& s, const TunnelSource& source, std::uint32_t user) {
    try {
        if (!source.server.empty()) return hysteria::parse_hysteria_link(source.server);
        if (user >= ctx.state.users.size())
            throw StepFailure("step " + s.name + " uses user " + std::to_string(user) + " but " +
                              std::to_string(ctx.state.users.size()) +
                              " users exist: add a create_users step before it, or give \"server\"");
        const RepUser& u = ctx.state.users[user];
        return hysteria_link_of(ctx.http, u.subscription, "user " + std::to_string(user) + " (" + u.id + ")");
    } catch (const StepFailure&) {
        throw;
    } catch (const NoHysteriaLink& e) {
        if (source.skip_elsewhere) throw;
        throw StepFailure("step " + s.name + ": " + e.what());
    } catch (const std::exception& e) {
        throw StepFailure("step " + s.name + ": " + e.what());
    }
}

}  // namespace

// A server the tunnel may not reach without the scenario's allow_remote (a
// subscription's link naming the panel's node by a name): the ways `stand
// run` has, the --param that sets the step's "server" where one does
// (tests/scenario-runs/check_remote_server_hint.sh runs the one it names).
std::string remote_server_problem(const RepContext& ctx, const Step& s, const tunnel::RemoteServerError& e,
                                  const hysteria::HysteriaLink& link) {
    const std::string here = "hysteria2://AUTH@127.0.0.1:" + std::to_string(link.port) + "/?insecure=1";
    const std::string allow = "set \"allow_remote\": true in the scenario file to look the name up and send load "
                              "beyond this machine";
    const auto& keys = find_step_kind(s.kind)->keys;
    if (std::none_of(keys.begin(), keys.end(), [](const StepKey& k) { return k.name == "server"; }))
        return e.reason() + ": " + allow + " (a " + s.kind + " step tunnels with the users' own links)";
    const auto& sources = ctx.env.scenario.param_sources;
    const auto param = sources.find(s.json_path + ".server");
    const std::string how = param != sources.end() ? "--param '" + param->second + "=" + here + "'"
                                                   : "the step \"server\": \"" + here + "\"";
    return e.reason() + ": give " + how + " (a server on this machine, AUTH a user's auth there), or " + allow;
}

namespace {

std::vector<hysteria::HysteriaLink> user_links(RepContext& ctx, const Step& s, const TunnelSource& source,
                                               std::uint32_t first, std::uint32_t count) {
    std::vector<hysteria::HysteriaLink> links;
    for (std::uint32_t i = first; i < first + count; ++i) {
        ctx.throw_if_interrupted();  // 400 links are 400 fetches
        if (source.server.empty() && i >= ctx.state.users.size())
            throw StepFailure("step " + s.name + " wants users " + std::to_string(first) + ".." +
                              std::to_string(first + count - 1) + ", each with a tunnel of its own, but " +
                              std::to_string(ctx.state.users.size()) + " users exist");
        links.push_back(tunnel_link(ctx, s, source, i));
    }
    return links;
}

// The step recorded as not measured, with why (loads, a finding).
void not_measured_here(RepContext& ctx, const Step& s, const std::string& why) {
    ctx.record.loads[s.name] = boost::json::object{{"not_measured", why}};
    ctx.record.finding(detect::Finding{"tunnel-not-here", ctx.scope(s), why});
}

}  // namespace

std::optional<std::vector<hysteria::HysteriaLink>> links_here(RepContext& ctx, const Step& s,
                                                              const TunnelSource& source, std::uint32_t first,
                                                              std::uint32_t count) {
    std::vector<hysteria::HysteriaLink> links;
    try {
        links = user_links(ctx, s, source, first, count);
    } catch (const NoHysteriaLink& e) {  // thrown on only with "if_elsewhere": "skip"
        not_measured_here(ctx, s, std::string(e.what()) + ": not measured (\"if_elsewhere\": \"skip\")");
        return std::nullopt;
    }
    const auto& link = links.front();
    if (!source.skip_elsewhere || ctx.env.scenario.allow_remote || host::http::is_local_host(link.host)) return links;
    not_measured_here(ctx, s, "the link names " + link.host + ":" + std::to_string(link.port) +
                                  ", not a server on this machine (the panel serves its users elsewhere, or not at "
                                  "all): not measured (\"if_elsewhere\": \"skip\")");
    return std::nullopt;
}

std::string tunnel_sink(RepContext& ctx, const Step& s, const TunnelSource& source) {
    if (!source.sink.empty()) return source.sink;
    if (ctx.env.backend == nullptr)
        throw StepFailure("step " + s.name + " needs a sink: give \"sink\" or a top-level \"backend\" (its /zero and /small)");
    return ctx.env.backend->host() + ":" + std::to_string(ctx.env.backend->port());
}

namespace {

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

tunnel::TunnelSpec tunnel_spec(RepContext& ctx, const Step& s, const TunnelStep& a, hysteria::HysteriaLink link) {
    tunnel::TunnelSpec spec;
    spec.link = std::move(link);
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

// "D_tunnel 3 s elapsed, 7 s left, 412 Mbit/s, 0 dropped, 0 reconnects" about once a second.
// Not while a `during` step runs: its own line says how that load goes.
std::function<void(const tunnel::TunnelProgress&)> live_status(RepContext& ctx, const Step& s, const TunnelStep& a,
                                                               const tunnel::TunnelSpec& spec) {
    if (!ctx.env.on_live || a.during) return {};
    const double planned = std::chrono::duration<double>(spec.duration).count();
    return [&ctx, &s, planned](const tunnel::TunnelProgress& p) {
        char text[200];
        std::snprintf(text, sizeof text, " %.0f s elapsed, %.0f s left, %.0f Mbit/s, %llu dropped, %llu reconnect%s",
                      p.elapsed_s, std::max(0.0, planned - p.elapsed_s), p.mbit_last_second,
                      static_cast<unsigned long long>(p.streams_dropped), static_cast<unsigned long long>(p.reconnects),
                      p.reconnects == 1 ? "" : "s");
        ctx.env.on_live(s.name + text);
    };
}

}  // namespace

// The tunnel runs on its own thread; a `during` step runs here alongside
// it. A failure of either is reported after both ended, with the other's
// metrics kept.
void run_tunnel(RepContext& ctx, const Step& s, Deadline) {
    const auto& a = s.action.get<TunnelStep>();
    auto links = links_here(ctx, s, a.source, a.source.user, 1);
    if (!links) {
        // The during step keeps its place in the window; the step lasts as planned.
        const auto t0 = RepClock::now();
        if (a.during) {
            ctx.sleep_for(a.during_after);
            ctx.run_nested(*a.during);
        }
        const Seconds left = a.duration - std::chrono::duration_cast<Seconds>(RepClock::now() - t0);
        if (left > Seconds(0)) ctx.sleep_for(left);
        return;
    }
    tunnel::TunnelHooks hooks;
    hooks.stop = &ctx.env.interrupted;
    const tunnel::TunnelSpec spec = tunnel_spec(ctx, s, a, std::move(links->front()));
    hooks.on_progress = live_status(ctx, s, a, spec);
    const auto processes_before = ctx.measured_processes();
    std::optional<tunnel::TunnelResult> result;
    std::string tunnel_error;
    const auto t0 = ctx.window_start();
    std::thread runner([&] {
        try {
            result = tunnel::run_tunnel(spec, hooks);
        } catch (const tunnel::RemoteServerError& e) {
            tunnel_error = remote_server_problem(ctx, s, e, spec.link);
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

void run_many_clients(RepContext& ctx, const Step& s, Deadline) {
    const auto& a = s.action.get<ManyClientsStep>();
    tunnel::ManyClientsSpec spec;
    const auto t0_links = RepClock::now();
    auto links = links_here(ctx, s, a.source, 0, a.clients);
    if (!links) return;
    ctx.put(s.name + ".links_s", std::chrono::duration<double>(RepClock::now() - t0_links).count());
    spec.links = std::move(*links);
    spec.sink = tunnel_sink(ctx, s, a.source);
    spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(a.duration);
    spec.ramp = std::chrono::duration_cast<std::chrono::nanoseconds>(a.ramp);
    spec.every = std::chrono::duration_cast<std::chrono::nanoseconds>(a.every);
    spec.congestion_control = a.source.cc;
    spec.allow_remote = ctx.env.scenario.allow_remote;
    const auto t0 = ctx.window_start();
    tunnel::ManyClientsResult r;
    try {
        r = tunnel::run_many_clients(spec, &ctx.env.interrupted);
    } catch (const tunnel::RemoteServerError& e) {
        throw StepFailure("step " + s.name + ": " + remote_server_problem(ctx, s, e, spec.links.front()));
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
    if (auto failed = many_clients_failures(r); !failed.empty())
        ctx.record.finding(detect::Finding{"tunnel-clients-failed", ctx.scope(s), failed + first_error(r.errors)});
}

}  // namespace stand::scenario::steps
