#include "scenario/step_parser.hpp"

#include "host/http/target_resolver.hpp"
#include "host/http/url.hpp"
#include "hysteria/hysteria_link.hpp"
#include "scenario/value_syntax.hpp"
#include "tls/test_certificates.hpp"

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string_view>
#include <vector>

namespace stand::scenario {
namespace {

namespace json = boost::json;
using std::chrono::milliseconds;

constexpr double kMaxDurationS = 86400;      // one day
constexpr double kMaxTimeoutS = 7 * 86400;   // one week
constexpr std::uint64_t kMaxIntervalMs = 60000;
constexpr std::uint64_t kMaxRequestMs = 600000;
constexpr std::uint64_t kMaxConnections = 100000;
constexpr std::uint64_t kMaxThreads = 1024;
constexpr double kMaxRate = 10'000'000;

constexpr std::string_view kKinds =
    "install, start, stop, wipe, wait_ready, sleep, idle, restart, load, run_probe, bootstrap, create_users, disk_usage, "
    "configure, websocket, hold_idle, tunnel_throughput, many_clients";
constexpr std::uint64_t kMaxUsers = 100000;

// Keys of each kind besides "step", "name" and "timeout_s"; nullptr for an unknown kind.
const std::vector<std::string_view>* kind_keys(std::string_view kind) {
    static const std::map<std::string_view, std::vector<std::string_view>> keys = {
        {"install", {}},
        {"start", {}},
        {"stop", {}},
        {"wipe", {}},
        {"wait_ready", {"interval_ms", "per_try_timeout_ms"}},
        {"restart", {"interval_ms", "per_try_timeout_ms", "admin_api"}},
        {"sleep", {"duration_s"}},
        {"idle", {"duration_s"}},
        {"load", {"duration_s", "connections", "threads", "rate", "keepalive", "path", "urls", "headers",
                  "request_timeout_ms", "links", "xff", "bind_prefix", "warmup_once", "churn_per_s"}},
        {"run_probe", {"job", "params"}},
        {"bootstrap", {}},
        {"create_users", {"count", "prefix"}},
        {"disk_usage", {}},
        {"configure", {"knobs", "upstream_keepalive", "tls", "websocket"}},
        {"websocket", {"duration_s", "connections", "message_bytes", "path"}},
        {"hold_idle", {"connections", "hold_s"}},
        {"tunnel_throughput", {"streams", "duration_s", "probe_interval_ms", "below_mbit", "server", "user", "sink",
                               "cc", "during", "during_after_s"}},
        {"many_clients", {"clients", "duration_s", "ramp_s", "every_s", "server", "sink", "cc"}},
    };
    auto it = keys.find(kind);
    return it == keys.end() ? nullptr : &it->second;
}

milliseconds to_ms(double seconds) { return milliseconds(std::llround(seconds * 1000)); }

template <class T>
T read_retry(const ObjectReader& r) {
    T step;
    if (auto v = r.uint("interval_ms", 1, kMaxIntervalMs)) step.interval = milliseconds(*v);
    if (auto v = r.uint("per_try_timeout_ms", 1, kMaxRequestMs)) step.per_try_timeout = milliseconds(*v);
    return step;
}

Seconds read_duration(const ObjectReader& r) {
    return Seconds(expect_positive(r.require("duration_s", "a positive number"), r.at("duration_s"), kMaxDurationS));
}

std::string read_load_url(const json::value& v, const JsonPlace& place, bool allow_remote) {
    const std::string text = expect_string(v, place, true);
    host::http::Url url;
    try {
        url = host::http::parse_url(text, "URL");
    } catch (const std::exception& e) {
        place.fail(std::string("an http or https URL (") + e.what() + ")", &v);
    }
    const bool local = url.host_is_ip ? host::http::is_loopback(boost::asio::ip::make_address(url.host))
                                      : url.host == "localhost" || url.host.ends_with(".localhost");
    if (!local && !allow_remote) place.fail("a loopback or localhost URL (set allow_remote to allow others)", &v);
    return text;
}

LoadStep read_load(const ObjectReader& r, bool allow_remote) {
    LoadStep step;
    if (r.find("duration_s")) step.duration = read_duration(r);
    if (auto v = r.uint("connections", 1, kMaxConnections)) step.connections = static_cast<std::uint32_t>(*v);
    if (auto v = r.uint("threads", 1, kMaxThreads)) {
        if (*v > step.connections)
            r.at("threads").fail("at most as many threads as connections (" + std::to_string(step.connections) + ")",
                                 r.find("threads"));
        step.threads = static_cast<std::uint32_t>(*v);
    }
    step.rate = r.positive("rate", kMaxRate);
    if (auto v = r.boolean("keepalive")) step.keepalive = *v;
    if (auto v = r.string("path")) {
        if ((*v)[0] != '/' || v->find_first_of(" \t\r\n") != std::string::npos)
            r.at("path").fail("a path starting with '/' without spaces", r.find("path"));
        step.path = *v;
    }
    if (const json::value* urls = r.find("urls")) {
        const json::array& list = expect_array(*urls, r.at("urls"), true);
        for (std::size_t i = 0; i < list.size(); ++i)
            step.urls.push_back(read_load_url(list[i], r.at("urls").index(i), allow_remote));
        if (r.find("path")) r.at("path").fail("no path when urls are given (they are complete)", r.find("path"));
    }
    if (const json::value* headers = r.find("headers")) {
        const json::array& list = expect_array(*headers, r.at("headers"), false);
        for (std::size_t i = 0; i < list.size(); ++i) {
            std::string header = expect_string(list[i], r.at("headers").index(i), true);
            if (!is_valid_header(header)) r.at("headers").index(i).fail("a header \"Name: value\"", &list[i]);
            step.headers.push_back(std::move(header));
        }
    }
    if (auto v = r.uint("request_timeout_ms", 1, kMaxRequestMs)) step.request_timeout = milliseconds(*v);
    if (auto v = r.string("links")) {
        if (*v != "subscriptions" && *v != "endpoint")
            r.at("links").fail("\"subscriptions\" or \"endpoint\"", r.find("links"));
        step.subscription_links = *v == "subscriptions";
        if (step.subscription_links && (r.find("urls") || r.find("path")))
            r.at("links").fail("no urls or path with subscription links", r.find("links"));
    }
    if (auto v = r.boolean("xff")) step.xff_per_link = *v;
    if (auto v = r.string("bind_prefix")) {
        static const std::regex kPrefix(R"(^127\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])$)");
        if (!std::regex_match(*v, kPrefix))
            r.at("bind_prefix").fail("\"127.N\" (source addresses 127.N.x.y need no aliases on loopback)",
                                     r.find("bind_prefix"));
        step.bind_prefix = *v;
    }
    if (auto v = r.boolean("warmup_once")) step.warmup_once = *v;
    if (auto v = r.positive("churn_per_s", 100)) step.churn_per_s = *v;
    return step;
}

CreateUsersStep read_create_users(const ObjectReader& r) {
    CreateUsersStep step;
    r.require("count", "an integer 1.." + std::to_string(kMaxUsers));
    step.count = static_cast<std::uint32_t>(*r.uint("count", 1, kMaxUsers));
    if (auto v = r.string("prefix")) {
        if (!is_valid_name(*v)) r.at("prefix").fail("letters, digits, '_' and '-' (at most 64)", r.find("prefix"));
        step.prefix = *v;
    }
    return step;
}

ProbeStep read_probe(const ObjectReader& r) {
    ProbeStep step;
    step.job = expect_string(r.require("job", "a non-empty string"), r.at("job"), true);
    if (const json::value* params = r.find("params")) step.params = expect_object(*params, r.at("params"));
    return step;
}

ConfigureStep read_configure(const ObjectReader& r) {
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

WebsocketStep read_websocket(const ObjectReader& r) {
    WebsocketStep step;
    if (r.find("duration_s")) step.duration = read_duration(r);
    if (auto v = r.uint("connections", 1, kMaxConnections)) step.connections = static_cast<std::uint32_t>(*v);
    if (auto v = r.uint("message_bytes", 1, 1 << 20)) step.message_bytes = static_cast<std::uint32_t>(*v);
    if (auto v = r.string("path")) {
        if ((*v)[0] != '/' || v->find_first_of(" \t\r\n") != std::string::npos)
            r.at("path").fail("a path starting with '/' without spaces", r.find("path"));
        step.path = *v;
    }
    return step;
}

HoldIdleStep read_hold_idle(const ObjectReader& r) {
    HoldIdleStep step;
    if (auto v = r.uint("connections", 1, kMaxConnections)) step.connections = static_cast<std::uint32_t>(*v);
    if (r.find("hold_s"))
        step.hold = Seconds(expect_positive(*r.find("hold_s"), r.at("hold_s"), kMaxDurationS));
    return step;
}

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

TunnelStep read_tunnel(const ObjectReader& r) {
    TunnelStep step;
    step.source = read_tunnel_source(r);
    if (auto v = r.uint("user", 0, kMaxUsers - 1)) step.source.user = static_cast<std::uint32_t>(*v);
    if (auto v = r.uint("streams", 1, 1024)) step.streams = static_cast<std::uint32_t>(*v);
    if (r.find("duration_s")) step.duration = read_duration(r);
    if (auto v = r.uint("probe_interval_ms", 1, kMaxIntervalMs)) step.probe_interval = milliseconds(*v);
    if (auto v = r.positive("below_mbit", 1e6)) step.below_mbit = *v;
    if (auto v = r.positive("during_after_s", kMaxDurationS)) {
        if (!r.find("during")) r.at("during_after_s").fail("no during_after_s without \"during\"", r.find("during_after_s"));
        if (*v >= step.duration.count())
            r.at("during_after_s").fail("a number of seconds less than duration_s", r.find("during_after_s"));
        step.during_after = Seconds(*v);
    }
    return step;
}

ManyClientsStep read_many_clients(const ObjectReader& r) {
    ManyClientsStep step;
    step.source = read_tunnel_source(r);
    if (auto v = r.uint("clients", 1, kMaxUsers)) step.clients = static_cast<std::uint32_t>(*v);
    if (r.find("duration_s")) step.duration = read_duration(r);
    if (auto v = r.positive("ramp_s", kMaxDurationS)) step.ramp = Seconds(*v);
    if (auto v = r.positive("every_s", kMaxDurationS)) step.every = Seconds(*v);
    if (step.ramp >= step.duration) r.at("ramp_s").fail("a number of seconds less than duration_s", r.find("ramp_s"));
    return step;
}

StepAction read_action(std::string_view kind, const ObjectReader& r, bool allow_remote) {
    if (kind == "install") return InstallStep{};
    if (kind == "start") return StartStep{};
    if (kind == "stop") return StopStep{};
    if (kind == "wipe") return WipeStep{};
    if (kind == "wait_ready") return read_retry<WaitReadyStep>(r);
    if (kind == "restart") {
        auto step = read_retry<RestartStep>(r);
        if (auto v = r.boolean("admin_api")) step.admin_api = *v;
        return step;
    }
    if (kind == "sleep") return SleepStep{read_duration(r)};
    if (kind == "idle") return IdleStep{read_duration(r)};
    if (kind == "load") return read_load(r, allow_remote);
    if (kind == "bootstrap") return BootstrapStep{};
    if (kind == "create_users") return read_create_users(r);
    if (kind == "disk_usage") return DiskUsageStep{};
    if (kind == "configure") return read_configure(r);
    if (kind == "websocket") return read_websocket(r);
    if (kind == "hold_idle") return read_hold_idle(r);
    if (kind == "tunnel_throughput") return read_tunnel(r);
    if (kind == "many_clients") return read_many_clients(r);
    return read_probe(r);
}

// What the step measures for; the timeout must leave room beyond it.
std::optional<Seconds> duration_of(const StepAction& action) {
    if (auto* s = std::get_if<SleepStep>(&action)) return s->duration;
    if (auto* s = std::get_if<IdleStep>(&action)) return s->duration;
    if (auto* s = std::get_if<LoadStep>(&action)) return s->duration;
    if (auto* s = std::get_if<WebsocketStep>(&action)) return s->duration;
    if (auto* s = std::get_if<HoldIdleStep>(&action)) return s->hold;
    if (auto* s = std::get_if<TunnelStep>(&action)) return s->duration;
    if (auto* s = std::get_if<ManyClientsStep>(&action)) return s->duration;
    return std::nullopt;
}

milliseconds default_timeout(std::string_view kind, std::optional<Seconds> duration) {
    if (duration) return to_ms(duration->count() + 30);
    if (kind == "install") return milliseconds(600'000);
    if (kind == "wait_ready" || kind == "restart") return milliseconds(180'000);
    if (kind == "bootstrap") return milliseconds(300'000);  // Mistgate waits for the next TOTP step
    if (kind == "create_users") return milliseconds(3'600'000);
    return milliseconds(60'000);
}

}  // namespace

Step parse_step(const json::value& v, const JsonPlace& place, KindCounter& counter, bool allow_remote) {
    const json::object& object = expect_object(v, place);
    const std::string expected_kind = "one of " + std::string(kKinds);
    const json::value* kind_value = object.if_contains("step");
    if (kind_value == nullptr || !kind_value->is_string()) place.key("step").fail(expected_kind, kind_value);
    Step step;
    step.kind = std::string(kind_value->get_string());
    const auto* specific = kind_keys(step.kind);
    if (specific == nullptr) place.key("step").fail(expected_kind, kind_value);

    std::vector<std::string_view> allowed = {"step", "name", "timeout_s", "plugin"};
    allowed.insert(allowed.end(), specific->begin(), specific->end());
    const bool vowel = std::string_view("aeiou").find(step.kind[0]) != std::string_view::npos;
    const ObjectReader r(v, place, (vowel ? "an " : "a ") + step.kind + " step", allowed);

    const std::size_t number = ++counter[step.kind];
    step.name = step.kind + std::to_string(number);
    if (auto name = r.string("name")) {
        if (!is_valid_name(*name)) r.at("name").fail("a name of letters, digits, '_' and '-' (at most 64)", r.find("name"));
        step.name = *name;
    }
    if (auto plugin = r.string("plugin")) step.plugin = *plugin;
    step.action = read_action(step.kind, r, allow_remote);
    if (auto* tunnel = std::get_if<TunnelStep>(&step.action); tunnel && r.find("during")) {
        Step inner = parse_step(*r.find("during"), r.at("during"), counter, allow_remote);
        if (std::holds_alternative<TunnelStep>(inner.action) || std::holds_alternative<ManyClientsStep>(inner.action))
            r.at("during").key("step").fail("a step that is not a tunnel (one tunnel at a time)",
                                            r.find("during")->as_object().if_contains("step"));
        tunnel->during = std::make_shared<const Step>(std::move(inner));
    }
    const auto duration = duration_of(step.action);
    step.timeout = default_timeout(step.kind, duration);
    // many_clients first fetches every client's subscription (its link):
    // up to a second each on a loaded panel, before the window starts.
    if (auto* many = std::get_if<ManyClientsStep>(&step.action))
        step.timeout += milliseconds(1000) * static_cast<long long>(many->clients);
    if (auto* tunnel = std::get_if<TunnelStep>(&step.action); tunnel && tunnel->during) {
        // The step lasts as long as the longer of the two.
        const auto inner_end = std::chrono::duration_cast<milliseconds>(tunnel->during_after) + tunnel->during->timeout;
        step.timeout = std::max(step.timeout, inner_end + milliseconds(30'000));
    }
    if (auto timeout = r.positive("timeout_s", kMaxTimeoutS)) {
        if (duration && *timeout <= duration->count())
            r.at("timeout_s").fail("a number of seconds greater than duration_s (" +
                                       describe_json(json::value(duration->count())) + ")",
                                   r.find("timeout_s"));
        step.timeout = to_ms(*timeout);
    }
    step.json_path = place.path();
    return step;
}

}  // namespace stand::scenario
