// configure: stand.proxy/1's configure() with knobs the host composes.
#include "scenario/steps/proxy.hpp"

#include "scenario/steps/rep_context.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"

#include "tls/test_certificates.hpp"

#include <algorithm>
#include <set>

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

// The effective_defaults() keys this step's knobs set; null (the proxy's
// own default) unsets one.
void note_settings_set(std::set<std::string>& set_so_far, const ConfigureStep& a) {
    auto mark = [&](const std::string& key, bool set) {
        if (set) set_so_far.insert(key);
        else set_so_far.erase(key);
    };
    for (const auto& [k, v] : a.knobs) mark(k == "tls_key" ? "tls_key_type" : std::string(k), !v.is_null());
    if (a.upstream_keepalive) mark("upstream_keepalive", !a.upstream_keepalive->is_null());
    if (a.tls) mark("tls_key_type", *a.tls != "off");
    if (a.websocket) mark("websocket", true);
}

void run_configure(RepContext& ctx, const Step& s, RepClock::time_point) {
    const auto& a = s.action.get<ConfigureStep>();
    std::optional<UpstreamAddress> upstream;
    if (ctx.env.backend != nullptr) upstream = UpstreamAddress{ctx.env.backend->host(), ctx.env.backend->port()};
    ProxySetup setup;
    try {
        setup = compose_proxy_setup(a, upstream, ctx.env.dir.root() / "certs", ctx.state.proxy_tls);
    } catch (const std::exception& e) {
        throw StepFailure(std::string("configure: ") + e.what());
    }
    ctx.must(ctx.port.configure(setup.knobs, s.timeout));
    ctx.state.proxy_tls = setup.tls;
    if (const auto* pool = setup.knobs.if_contains("upstream_keepalive"))
        ctx.state.upstream_keepalive = pool->is_bool() ? std::optional<bool>(pool->as_bool()) : std::nullopt;
    auto defaults = ctx.must(ctx.port.effective_defaults(s.timeout));
    if (!defaults.is_object())
        throw StepFailure("proxy.effective_defaults answered " + json::serialize(defaults) + ", not an object");
    ctx.record.proxy_defaults[s.name] = std::move(defaults);
    note_settings_set(ctx.state.settings_set, a);
    json::array set;
    for (const auto& k : ctx.state.settings_set) set.emplace_back(k);
    ctx.record.proxy_set[s.name] = std::move(set);
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
        .parse = read_configure,
        .run = run_configure};
    return k;
}

}  // namespace stand::scenario::steps
