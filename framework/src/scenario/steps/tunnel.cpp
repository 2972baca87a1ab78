// Hysteria 2 tunnels: tunnel_throughput (one tunnel, downloads and probes,
// with a step alongside) and many_clients (a tunnel per client).
#include "scenario/steps/tunnel.hpp"

#include "host/http/target_resolver.hpp"
#include "hysteria/hysteria_link.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"
#include "scenario/steps/tunnel_keys.hpp"
#include "scenario/steps/tunnel_run.hpp"
#include "tunnel/client_setup.hpp"
#include "tunnel/tunnel_spec.hpp"

#include <algorithm>

namespace stand::scenario::steps {

TunnelSource read_tunnel_source(const ObjectReader& r, const StepParseContext& ctx) {
    TunnelSource source;
    // "" (as a parameter's default) means the same as no "server": the link
    // comes from a user's subscription.
    if (const auto* v = r.find("server"); v != nullptr && !(v->is_string() && v->as_string().empty())) {
        const std::string text = expect_string(*v, r.at("server"), true);
        try {
            const auto link = hysteria::parse_hysteria_link(text);
            if (!ctx.allow_remote && !host::http::is_local_host(link.host))
                r.at("server").fail("a hysteria2:// link to this machine (a loopback address or localhost; set "
                                    "allow_remote for others)", v);
        } catch (const hysteria::LinkError& e) {
            r.at("server").fail(std::string("a hysteria2:// link (") + e.what() + ")", v);
        }
        source.server = text;
    }
    if (auto v = r.string("sink")) {
        try {
            tunnel::check_sink(*v, ctx.allow_remote);
        } catch (const tunnel::TunnelSpecError& e) {
            r.at("sink").fail(std::string("host:port on this machine (") + e.what() + ")", r.find("sink"));
        }
        source.sink = *v;
    }
    if (auto v = r.string("cc")) {
        if (*v != "bbr" && *v != "cubic" && *v != "bbr2" && *v != "reno")
            r.at("cc").fail("one of bbr, cubic, bbr2, reno", r.find("cc"));
        source.cc = *v;
    }
    if (auto v = r.string("if_elsewhere")) {
        if (*v != "fail" && *v != "skip") r.at("if_elsewhere").fail("fail or skip", r.find("if_elsewhere"));
        source.skip_elsewhere = *v == "skip";
    }
    return source;
}

const StepKey kTunnelServer{"server", "a hysteria2:// or hy2:// link", "absent: a created user's subscription"};
const StepKey kTunnelSink{"sink", "host:port", "the scenario's backend"};
const StepKey kTunnelCc{"cc", "bbr, cubic, bbr2 or reno", "bbr"};
const StepKey kTunnelIfElsewhere{"if_elsewhere",
                           "fail or skip: a user's link naming a server not on this machine, or a subscription with "
                           "no Hysteria 2 link, fails the step, or skips it (not measured, why recorded; a during "
                           "step still runs)",
                           "fail"};


namespace {

using std::chrono::milliseconds;

StepAction read_tunnel(const ObjectReader& r, const StepParseContext& ctx) {
    TunnelStep step;
    step.source = read_tunnel_source(r, ctx);
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

StepAction read_many_clients(const ObjectReader& r, const StepParseContext& ctx) {
    ManyClientsStep step;
    step.source = read_tunnel_source(r, ctx);
    if (auto v = r.uint("clients", 1, step_keys::kMaxUsers)) step.clients = static_cast<std::uint32_t>(*v);
    if (r.find("duration_s")) step.duration = step_keys::duration(r);
    if (auto v = r.positive("ramp_s", step_keys::kMaxDurationS)) step.ramp = Seconds(*v);
    if (auto v = r.positive("every_s", step_keys::kMaxDurationS)) step.every = Seconds(*v);
    if (step.ramp >= step.duration) r.at("ramp_s").fail("a number of seconds less than duration_s", r.find("ramp_s"));
    return step;
}

// The users' links are the panel's; a given server is nobody's.
template <class Source>
std::vector<std::string_view> panel_unless_given(const Source& source) {
    if (source.server.empty()) return {"stand.panel/1"};
    return {};
}

}  // namespace

const StepKind& tunnel_throughput_kind() {
    static const StepKind k{
        .name = "tunnel_throughput",
        .summary = "one Hysteria 2 tunnel carrying streams downloads and a probe every probe_interval_ms; with during, "
                   "that step runs alongside",
        .interface = "stand.panel/1",
        .interfaces_of = [](const StepAction& a) { return panel_unless_given(a.get<TunnelStep>().source); },
        .keys = {kTunnelServer, {"user", "integer", "0"}, kTunnelSink, kTunnelCc, kTunnelIfElsewhere, {"streams", "integer 1..1024", "1"},
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
        .users_needed = [](const StepAction& a) {
            const auto& source = a.get<TunnelStep>().source;
            return source.server.empty() ? source.user + 1 : 0u;  // a given link names no user
        },
        .run = run_tunnel};
    return k;
}

const StepKind& many_clients_kind() {
    static const StepKind k{
        .name = "many_clients",
        .summary = "clients tunnels, client i with user i's link, connecting over ramp_s, each fetching /small every "
                   "every_s",
        .interface = "stand.panel/1",
        .interfaces_of = [](const StepAction& a) { return panel_unless_given(a.get<ManyClientsStep>().source); },
        .keys = {{"clients", "integer 1..100000", "400"}, kTunnelServer, kTunnelSink, kTunnelCc, kTunnelIfElsewhere,
                 {"duration_s", "number > 0, at most 86400", "60"}, {"ramp_s", "number < duration_s", "20"},
                 {"every_s", "number > 0", "2"}},
        .metrics = {"connected", "handshake_failures", "handshake_p50_ms", "handshake_p95_ms", "requests_ok",
                    "request_failures", "request_p95_ms", "disconnects", "box_cpu_pct", "anon_mean_mib",
                    "mem_max_mib", "client_cpu_pct", "links_s"},
        .parse = read_many_clients,
        .duration = step_keys::duration_of<ManyClientsStep>,
        .timeout_of = many_clients_timeout,
        .users_needed = [](const StepAction& a) {
            const auto& c = a.get<ManyClientsStep>();
            return c.source.server.empty() ? c.clients : 0u;
        },
        .run = run_many_clients};
    return k;
}

}  // namespace stand::scenario::steps
