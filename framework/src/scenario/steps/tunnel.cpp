// Hysteria 2 tunnels: tunnel_throughput (one tunnel, downloads and probes,
// with a step alongside) and many_clients (a tunnel per client).
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"

#include "hysteria/hysteria_link.hpp"

namespace stand::scenario::steps {
namespace {

using std::chrono::milliseconds;

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

// "during" (a step run alongside) is read by the step parser, which reads steps.
StepAction read_tunnel(const ObjectReader& r, const StepParseContext&) {
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
    return step;
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
        .duration = step_keys::duration_of<TunnelStep>};
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
        .duration = step_keys::duration_of<ManyClientsStep>};
    return k;
}

}  // namespace stand::scenario::steps
