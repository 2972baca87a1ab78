// stand.proxy/1: configure (knobs the host composes) and what goes through
// the proxy besides HTTP load: websocket echo, idle connections held.
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"

#include "tls/test_certificates.hpp"

#include <algorithm>

namespace stand::scenario::steps {
namespace {

namespace json = boost::json;

StepAction read_configure(const ObjectReader& r, const StepParseContext&) {
    ConfigureStep step;
    if (const json::value* knobs = r.find("knobs")) step.knobs = expect_object(*knobs, r.at("knobs"));
    if (const json::value* pool = r.find("upstream_keepalive")) {
        if (!pool->is_bool() && !pool->is_null())
            r.at("upstream_keepalive").fail("true, false or null (the proxy's own default)", pool);
        step.upstream_keepalive = *pool;
    }
    if (auto v = r.string("tls")) {
        const auto& types = tls::known_key_types();
        if (*v != "off" && std::find(types.begin(), types.end(), *v) == types.end()) {
            std::string names;
            for (const auto& t : types) names += t + ", ";
            r.at("tls").fail("a key type (" + names + "or \"off\")", r.find("tls"));
        }
        step.tls = *v;
    } else if (r.find("tls")) {
        r.at("tls").fail("a key type string or \"off\"", r.find("tls"));
    }
    if (auto v = r.boolean("websocket")) step.websocket = *v;
    // One place for each setting: a knob the step's own key also sets is refused.
    for (const auto& [knob, key] : {std::pair{"upstream_keepalive", "upstream_keepalive"},
                                    std::pair{"websocket", "websocket"}, std::pair{"tls_key", "tls"}})
        if (step.knobs.contains(knob) && r.find(key))
            r.at("knobs").key(knob).fail(std::string("no ") + knob + " in knobs when the step sets \"" + key + "\"",
                                         step.knobs.if_contains(knob));
    return step;
}

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

}  // namespace

const StepKind& configure_kind() {
    static const StepKind k{
        .name = "configure",
        .summary = "configure() with knobs the host composes, then records the plugin's effective_defaults()",
        .interface = "stand.proxy/1",
        .keys = {{"knobs", "object (passed on)", "{}"},
                 {"upstream_keepalive", "true, false or null (the proxy's own default)", "absent: not sent"},
                 {"tls", "a key type (p256, p384, ed25519, rsa2048, rsa3072, rsa4096) or \"off\"", "absent: not sent"},
                 {"websocket", "bool", "absent: not sent"}},
        .parse = read_configure};
    return k;
}

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
        .duration = step_keys::duration_of<WebsocketStep>};
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
        .duration = [](const StepAction& a) -> std::optional<Seconds> { return std::get<HoldIdleStep>(a).hold; }};
    return k;
}

}  // namespace stand::scenario::steps
