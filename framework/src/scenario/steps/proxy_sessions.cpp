// What goes through a proxy besides HTTP load: websocket (echo sessions
// upgraded through the endpoint) and hold_idle (idle connections held).
#include "scenario/steps/proxy.hpp"

#include "load/idle_hold.hpp"
#include "load/ws_echo_load.hpp"
#include "scenario/steps/rep_context.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"
#include "text/number_format.hpp"


namespace stand::scenario::steps {
namespace {

StepAction read_websocket(const ObjectReader& r, const StepParseContext&) {
    WebsocketStep step;
    if (r.find("duration_s")) step.duration = step_keys::duration(r);
    if (auto v = r.uint("connections", 1, step_keys::kMaxConnections)) step.connections = static_cast<std::uint32_t>(*v);
    if (auto v = r.uint("message_bytes", 1, 1 << 20)) step.message_bytes = static_cast<std::uint32_t>(*v);
    if (auto v = step_keys::path(r, "path")) step.path = *v;
    return step;
}

StepAction read_hold_idle(const ObjectReader& r, const StepParseContext&) {
    HoldIdleStep step;
    if (auto v = r.uint("connections", 1, step_keys::kMaxConnections)) step.connections = static_cast<std::uint32_t>(*v);
    if (r.find("hold_s"))
        step.hold = Seconds(expect_positive(*r.find("hold_s"), r.at("hold_s"), step_keys::kMaxDurationS));
    return step;
}

void run_websocket(RepContext& ctx, const Step& s, RepClock::time_point) {
    const auto& a = s.action.get<WebsocketStep>();
    const Endpoint t = ctx.endpoint(s);
    if (t.tls) throw StepFailure("step " + s.name + ": the websocket step speaks ws:// only; configure tls \"off\" before it");
    load::WsEchoSpec spec;
    spec.host = t.host;
    spec.port = t.port;
    spec.path = a.path;
    spec.connections = a.connections;
    spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(a.duration);
    spec.message_bytes = a.message_bytes;
    spec.cpus = ctx.env.generator_cpus;
    std::optional<target::BackendStats> before;
    if (ctx.env.backend != nullptr) before = ctx.backend_stats(s);
    const auto t0 = ctx.window_start();
    load::WsEchoResult r;
    try {
        r = load::run_ws_echo(spec, &ctx.env.interrupted);
    } catch (const std::exception& e) {
        throw StepFailure("step " + s.name + ": " + e.what());
    }
    const auto t1 = RepClock::now();
    ctx.record.loads[s.name] = r.to_json();
    ctx.put(s.name + ".ws_connected", r.connected);
    ctx.put(s.name + ".ws_failed", r.failed);
    ctx.put(s.name + ".ws_dropped", r.dropped);
    ctx.put(s.name + ".ws_echoes_per_s", r.elapsed_s > 0 ? static_cast<double>(r.echoes) / r.elapsed_s : 0);
    if (r.rtt_us.count() > 0) {
        ctx.put(s.name + ".ws_rtt_p50_ms", static_cast<double>(r.rtt_us.value_at_percentile(50)) / 1000.0);
        ctx.put(s.name + ".ws_rtt_p99_ms", static_cast<double>(r.rtt_us.value_at_percentile(99)) / 1000.0);
    }
    if (r.echoes > 0) ctx.put(s.name + ".client_cpu_us_per_echo", r.cpu_s * 1e6 / static_cast<double>(r.echoes));
    if (auto w = ctx.window(t0, t1, s.name); w && w->cpu_pct) {
        ctx.put(s.name + ".box_cpu_pct", *w->cpu_pct);
        if (r.echoes > 0)
            ctx.put(s.name + ".box_cpu_us_per_echo", *w->cpu_pct / 100.0 * w->duration_s * 1e6 / static_cast<double>(r.echoes));
        if (w->mem_current) ctx.put(s.name + ".mem_max_mib", static_cast<double>(w->mem_current->max) / 1048576.0);
    }
    if (before)
        ctx.put(s.name + ".backend_ws_sessions", static_cast<double>(ctx.backend_stats(s).ws_sessions - before->ws_sessions));
    if (r.failed > 0 || r.dropped > 0 || r.mismatched > 0)
        ctx.record.finding(detect::Finding{
            "websocket-failures", ctx.scope(s),
            std::to_string(r.failed) + " of " + std::to_string(a.connections) + " upgrades failed, " +
                std::to_string(r.dropped) + " sessions dropped, " + std::to_string(r.mismatched) + " echoes differed" +
                first_error(r.errors)});
}

void run_hold_idle(RepContext& ctx, const Step& s, RepClock::time_point) {
    const auto& a = s.action.get<HoldIdleStep>();
    const Endpoint t = ctx.endpoint(s);
    load::IdleHoldSpec spec;
    spec.host = t.host;
    spec.port = t.port;
    spec.tls = t.tls;
    spec.connections = a.connections;
    spec.hold = std::chrono::duration_cast<std::chrono::nanoseconds>(a.hold);
    spec.cpus = ctx.env.generator_cpus;
    const auto t0 = ctx.window_start();
    load::IdleHoldResult r;
    try {
        r = load::hold_idle_connections(spec, &ctx.env.interrupted);
    } catch (const std::exception& e) {
        throw StepFailure("step " + s.name + ": " + e.what());
    }
    ctx.record.loads[s.name] = r.to_json();
    ctx.put(s.name + ".idle_opened", r.opened);
    ctx.put(s.name + ".idle_failed", r.failed);
    ctx.put(s.name + ".idle_closed", r.closed);
    ctx.put(s.name + ".idle_held", r.held);
    ctx.put(s.name + ".idle_open_s", r.open_s);
    if (auto w = ctx.window(t0, RepClock::now(), s.name)) {
        if (w->cpu_pct) ctx.put(s.name + ".box_cpu_pct", *w->cpu_pct);
        if (w->mem_current) ctx.put(s.name + ".mem_max_mib", static_cast<double>(w->mem_current->max) / 1048576.0);
    }
    if (r.held < a.connections)
        ctx.record.finding(detect::Finding{
            "idle-not-held", ctx.scope(s),
            std::to_string(r.held) + " of " + std::to_string(a.connections) + " idle connections were still open after " +
                text::format_exact(a.hold.count()) + " s (" + std::to_string(r.failed) + " failed to open, " +
                std::to_string(r.closed) + " closed by the server)" + first_error(r.errors)});
}

}  // namespace

const StepKind& websocket_kind() {
    static const StepKind k{
        .name = "websocket",
        .summary = "websocket echo through the plugin's endpoint: each connection upgrades at path and echoes",
        .interface = "stand.proxy/1",
        .keys = {{"duration_s", "number > 0, at most 86400", "10"},
                 {"connections", "integer 1..100000", "200"},
                 {"message_bytes", "integer 1..1048576", "64"},
                 {"path", "string starting with /", "/ws"}},
        .metrics = {"ws_connected", "ws_failed", "ws_dropped", "ws_echoes_per_s", "ws_rtt_p50_ms", "ws_rtt_p99_ms",
                    "client_cpu_us_per_echo", "box_cpu_pct", "box_cpu_us_per_echo", "backend_ws_sessions",
                    "mem_max_mib"},
        .parse = read_websocket,
        .duration = step_keys::duration_of<WebsocketStep>,
        .run = run_websocket};
    return k;
}

const StepKind& hold_idle_kind() {
    static const StepKind k{
        .name = "hold_idle",
        .summary = "opens idle connections to the plugin's endpoint and holds them: how many the system keeps",
        .interface = "stand.proxy/1",
        .keys = {{"connections", "integer 1..100000", "1000"}, {"hold_s", "number > 0, at most 86400", "10"}},
        .metrics = {"idle_opened", "idle_failed", "idle_closed", "idle_held", "idle_open_s", "mem_max_mib",
                    "box_cpu_pct"},
        .parse = read_hold_idle,
        .duration = [](const StepAction& a) -> std::optional<Seconds> { return a.get<HoldIdleStep>().hold; },
        .run = run_hold_idle};
    return k;
}

}  // namespace stand::scenario::steps
