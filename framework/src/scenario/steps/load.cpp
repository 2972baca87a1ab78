// load: HTTP load at the plugin's endpoint, at explicit URLs, or at the
// subscription links of the users created so far.
#include "scenario/steps/load.hpp"

#include "load/load_spec.hpp"
#include "scenario/steps/load_run.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"

#include "host/http/target_resolver.hpp"
#include "host/http/url.hpp"
#include "scenario/value_syntax.hpp"

#include <boost/asio/ip/address.hpp>


namespace stand::scenario::steps {
namespace {

namespace json = boost::json;
using std::chrono::milliseconds;

constexpr std::uint64_t kMaxThreads = 1024;
constexpr double kMaxRate = 10'000'000;
constexpr std::uint64_t kMaxDashboards = 100;

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

void read_targets(const ObjectReader& r, bool allow_remote, LoadStep& step) {
    if (auto v = step_keys::path(r, "path")) step.path = *v;
    if (const json::value* urls = r.find("urls")) {
        const json::array& list = expect_array(*urls, r.at("urls"), true);
        for (std::size_t i = 0; i < list.size(); ++i)
            step.urls.push_back(read_load_url(list[i], r.at("urls").index(i), allow_remote));
        if (r.find("path")) r.at("path").fail("no path when urls are given (they are complete)", r.find("path"));
    }
    if (auto v = r.string("links")) {
        if (*v != "subscriptions" && *v != "endpoint")
            r.at("links").fail("\"subscriptions\" or \"endpoint\"", r.find("links"));
        step.subscription_links = *v == "subscriptions";
        if (step.subscription_links && (r.find("urls") || r.find("path")))
            r.at("links").fail("no urls or path with subscription links", r.find("links"));
    }
}

void read_headers(const ObjectReader& r, LoadStep& step) {
    const json::value* headers = r.find("headers");
    if (headers == nullptr) return;
    const json::array& list = expect_array(*headers, r.at("headers"), false);
    for (std::size_t i = 0; i < list.size(); ++i) {
        std::string header = expect_string(list[i], r.at("headers").index(i), true);
        if (!is_valid_header(header)) r.at("headers").index(i).fail("a header \"Name: value\"", &list[i]);
        step.headers.push_back(std::move(header));
    }
}

// What a load cannot do from another machine, refused for one that comes
// from `from` (the generators, the controller).
void refuse_what_stays_here(const ObjectReader& r, const LoadStep& step, const std::string& from) {
    const auto refuse = [&](const char* key, const std::string& why) { r.at(key).fail(why, r.find(key)); };
    if (step.subscription_links) refuse("links", "\"endpoint\" " + from + " (the links and their headers are this machine's)");
    if (step.bind_prefix) refuse("bind_prefix", "no bind_prefix " + from + " (loopback sources are this machine's)");
    if (step.churn_per_s > 0) refuse("churn_per_s", "no churn_per_s " + from);
    if (step.dashboards > 0) refuse("dashboards", "no dashboards " + from);
    if (step.xff_per_link) refuse("xff", "no xff " + from);
}

// "generators" (names of the scenario's generator hosts) and their "link",
// or "from": "controller". What cannot come from another machine is
// refused here.
void read_generators(const ObjectReader& r, LoadStep& step) {
    if (const json::value* names = r.find("generators")) {
        const json::array& list = expect_array(*names, r.at("generators"), true);
        for (std::size_t i = 0; i < list.size(); ++i) {
            std::string name = expect_string(list[i], r.at("generators").index(i), true);
            for (const auto& earlier : step.generators)
                if (earlier == name) r.at("generators").index(i).fail("a name not given before", &list[i]);
            step.generators.push_back(std::move(name));
        }
        if (step.urls.size() != 1)
            r.at("urls").fail("exactly one URL, the address the generators reach the target at (a loopback URL is each "
                              "generator's own)",
                              r.find("urls"));
        refuse_what_stays_here(r, step, "with generators");
    }
    if (auto from = r.string("from")) {
        if (*from != "host" && *from != "controller") r.at("from").fail("\"host\" or \"controller\"", r.find("from"));
        step.from_controller = *from == "controller";
        if (step.from_controller && !step.generators.empty())
            r.at("from").fail("\"host\" with generators (they are where the load comes from)", r.find("from"));
        if (step.from_controller) refuse_what_stays_here(r, step, "from the controller");
    }
    if (auto text = r.string("link")) {
        if (step.generators.empty()) r.at("link").fail("a link with generators only (it shapes their links)", r.find("link"));
        try {
            step.link = fleetrun::parse_link_plan(*text);
        } catch (const std::invalid_argument& e) {
            r.at("link").fail(std::string("rtt=DURATION[,jitter=DURATION][,loss=PCT%][,rate=Nmbit] (") + e.what() + ")",
                              r.find("link"));
        }
    }
}

// "127" or "127.N", N 0..255 as an address writes it (no leading zero but in "0N").
bool is_bind_prefix(std::string_view v) {
    if (v == "127") return true;
    if (!v.starts_with("127.")) return false;
    const std::string_view n = v.substr(4);
    if (n.empty() || n.size() > 3 || n.find_first_not_of("0123456789") != std::string_view::npos) return false;
    if (n.size() == 3 && n[0] == '0') return false;
    int value = 0;
    for (char c : n) value = value * 10 + (c - '0');
    return value <= 255;
}

}  // namespace

LoadStep read_load_step(const ObjectReader& r, const StepParseContext& ctx) {
    LoadStep step;
    if (r.find("duration_s")) step.duration = step_keys::duration(r);
    if (auto v = r.uint("connections", 1, step_keys::kMaxConnections)) step.connections = static_cast<std::uint32_t>(*v);
    if (auto v = r.uint("threads", 1, kMaxThreads)) {
        if (*v > step.connections)
            r.at("threads").fail("at most as many threads as connections (" + std::to_string(step.connections) + ")",
                                 r.find("threads"));
        step.threads = static_cast<std::uint32_t>(*v);
    }
    step.rate = r.positive("rate", kMaxRate);
    if (step.rate)
        if (std::string why = load::rate_refusal(*step.rate, step.duration); !why.empty()) r.at("rate").fail_message(why);
    if (auto v = r.boolean("keepalive")) step.keepalive = *v;
    read_targets(r, ctx.allow_remote, step);
    read_headers(r, step);
    if (auto v = r.uint("request_timeout_ms", 1, step_keys::kMaxRequestMs)) step.request_timeout = milliseconds(*v);
    if (auto v = r.boolean("xff")) step.xff_per_link = *v;
    if (auto v = r.string("bind_prefix")) {
        if (!is_bind_prefix(*v))
            r.at("bind_prefix").fail("\"127.N\" or \"127\" (source addresses 127.N.x.y need no aliases on loopback; \"127\" "
                                     "for more than 63750 links)",
                                     r.find("bind_prefix"));
        step.bind_prefix = *v;
    }
    if (auto v = r.boolean("warmup_once")) step.warmup_once = *v;
    if (auto v = r.positive("churn_per_s", 100)) step.churn_per_s = *v;
    if (auto v = r.uint("dashboards", 1, kMaxDashboards)) step.dashboards = static_cast<std::uint32_t>(*v);
    read_generators(r, step);
    return step;
}

namespace {

StepAction read_load(const ObjectReader& r, const StepParseContext& ctx) { return read_load_step(r, ctx); }

// The endpoint is the plugin's lifecycle's; the users' links, the churn and
// the dashboards are its panel's; given URLs are nobody's.
std::vector<std::string_view> load_interfaces(const StepAction& a) {
    const auto& load = a.get<LoadStep>();
    std::vector<std::string_view> out;
    if (load.urls.empty() && !load.subscription_links) out.emplace_back("stand.lifecycle/1");
    if (load.subscription_links || load.churn_per_s > 0 || load.dashboards > 0) out.emplace_back("stand.panel/1");
    return out;
}

bool load_emits(const StepAction& a, std::string_view m) {
    const auto& load = a.get<LoadStep>();
    if (m == "late_pct") return load.rate.has_value();
    if (m.starts_with("admin_")) return load.churn_per_s > 0;
    if (m.starts_with("dash_")) return load.dashboards > 0;
    return true;
}

}  // namespace

const StepKind& load_kind() {
    static const StepKind k{
        .name = "load",
        .summary = "drives HTTP load at the plugin's endpoint (or given URLs, or the users' subscription links)",
        .interface = "stand.lifecycle/1",
        .interfaces_of = load_interfaces,
        .keys = {{"duration_s", "number > 0, at most 86400", "10"},
                 {"connections", "integer 1..100000", "16"},
                 {"threads", "integer 1..1024, at most connections", "1"},
                 {"rate", "number > 0, at most 10000000 (requests/s: the open model)", "absent: the closed model"},
                 {"keepalive", "bool", "true"},
                 {"path", "string starting with /", "/"},
                 {"urls", "non-empty array of http(s) URLs", "absent: the plugin's endpoint"},
                 {"headers", "array of \"Name: value\"", "[]"},
                 {"request_timeout_ms", "integer 1..600000", "10000"},
                 {"links", "\"endpoint\" or \"subscriptions\"", "endpoint"},
                 {"xff", "bool", "false"},
                 {"bind_prefix", "\"127.N\" or \"127\"", "absent"},
                 {"warmup_once", "bool", "false"},
                 {"churn_per_s", "number > 0, at most 100", "0"},
                 {"dashboards", "integer 1..100: open admin dashboards, each polling the requests the panel's UI "
                                "polls (panel.dashboard_requests) at the UI's own periods",
                  "0"},
                 {"generators", "non-empty array of names of the scenario's generators (needs one URL in urls)",
                  "absent: from this machine"},
                 {"link", "\"rtt=50ms,jitter=5ms,loss=0.5%,rate=100mbit\" (any part; with generators)", "absent"},
                 {"from", "\"host\" or \"controller\" (on a fleet host: the load from the controller, at the host's "
                          "address)",
                  "host"}},
        .metrics = {"rps", "ok_rps", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "ok_p50_ms", "ok_p95_ms", "ok_p99_ms",
                    "error_pct", "box_cpu_pct", "box_cpu_us_per_req", "client_cpu_pct", "client_cpu_us_per_req",
                    "mem_max_mib", "anon_mean_mib", "peak_since_start_mib", "throttled_ms",
                    // through a proxy (scenario/proxy_load_metrics.hpp)
                    "conns_per_req", "backend_conns", "backend_conns_per_req", "backend_requests_per_req",
                    "backend_cpu_us_per_req", "handshakes", "server_us_per_handshake", "client_us_per_handshake",
                    // the open model
                    "late_pct",
                    // with churn_per_s
                    "admin_add_p50_ms", "admin_add_p95_ms", "admin_add_max_ms", "admin_del_p50_ms",
                    "admin_del_p95_ms", "admin_del_max_ms", "admin_call_p50_ms", "admin_call_p95_ms",
                    "admin_call_max_ms", "admin_errors",
                    // with dashboards: over every dashboard request
                    "dash_rps", "dash_p50_ms", "dash_p95_ms", "dash_max_ms", "dash_error_pct"},
        .parse = read_load,
        .emits = load_emits,
        .duration = step_keys::duration_of<LoadStep>,
        .users_needed = [](const StepAction& a) -> std::uint32_t { return a.get<LoadStep>().subscription_links ? 1 : 0; },
        .run = run_load};
    return k;
}

}  // namespace stand::scenario::steps
