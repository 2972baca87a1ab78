#include "scenario/steps/load_run.hpp"

#include "detect/load_detectors.hpp"
#include "load/hdr_interval_log.hpp"
#include "load/interval_budget.hpp"
#include "load/link_pattern.hpp"
#include "load/load_engine.hpp"
#include "scenario/live_feed.hpp"
#include "scenario/proxy_load_metrics.hpp"
#include "scenario/steps/admin_churn.hpp"
#include "scenario/steps/dashboard_poll.hpp"
#include "scenario/steps/load.hpp"
#include "scenario/steps/load_generators.hpp"
#include "tls/peer_certificate.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>

namespace stand::scenario::steps {
namespace {

namespace json = boost::json;

load::LinkList subscription_links(RepContext& ctx) {
    if (ctx.state.users.empty()) throw StepFailure("a subscriptions load needs users: add a create_users step before it");
    load::LinkList links;
    for (const auto& u : ctx.state.users) {
        load::Link link;
        link.method = u.subscription.contains("method") ? std::string(u.subscription.at("method").as_string())
                                                        : std::string("GET");
        link.url = std::string(u.subscription.at("url").as_string());
        if (const auto* h = u.subscription.if_contains("headers"); h && h->is_object())
            for (const auto& [k, v] : h->as_object())
                if (v.is_string()) link.headers.emplace_back(std::string(k), std::string(v.as_string()));
        links.push_back(std::move(link));
    }
    return links;
}

load::LinkList load_links(RepContext& ctx, const Step& s, const LoadStep& l) {
    if (l.subscription_links) return subscription_links(ctx);
    load::LinkList links;
    for (const auto& u : l.urls) links.push_back({"GET", u, {}, {}});
    if (links.empty()) links.push_back({"GET", ctx.endpoint_base(s) + l.path, {}, {}});
    return links;
}

// About once a second: the live line ("keepalive 3 s elapsed, 7 s left,
// 16204/s, 0 errors": the rate over the last interval, the errors so far)
// and the live figures of the load.
std::function<void(const load::LoadProgress&)> live_status(RepContext& ctx, const std::string& label,
                                                           const load::LoadSpec& spec,
                                                           const std::shared_ptr<live::LoadFigures>& figures) {
    if (!ctx.env.on_live && !ctx.env.figures) return {};
    auto last = std::make_shared<load::LoadProgress>();
    const double planned = std::chrono::duration<double>(spec.duration).count();
    return [&ctx, label, last, planned, figures](const load::LoadProgress& p) {
        const double dt = p.elapsed_s - last->elapsed_s;
        const double rate = dt > 0 ? static_cast<double>(p.completed - last->completed) / dt : 0;
        *last = p;
        if (ctx.env.figures) {
            add_progress(*figures, p, rate);
            ctx.env.figures->load_update(*figures);
        }
        if (!ctx.env.on_live) return;
        char text[160];
        std::snprintf(text, sizeof text, " %.0f s elapsed, %.0f s left, %.0f/s, %llu error%s", p.elapsed_s,
                      std::max(0.0, planned - p.elapsed_s), rate, static_cast<unsigned long long>(p.errors),
                      p.errors == 1 ? "" : "s");
        ctx.env.on_live(label + text);
    };
}

// The step's latency per second as an HdrHistogram interval log in the run
// directory (hdr/<key>.<step>.hlog), named in its load record.
void write_hdr_log(RepContext& ctx, const Step& s, const load::LoadResult& r) {
    const auto file = ctx.env.dir.hdr_log_file(ctx.env.planned.key, s.name);
    std::filesystem::create_directories(file.parent_path());  // a run begun before hdr/ was part of the layout
    rundir::RunDirectory::write_atomically(file, load::hdr_interval_log(r));
    ctx.record.loads[s.name].as_object()["hdr_log"] = file.lexically_relative(ctx.env.dir.root()).string();
}

// The load, with the admin churn and the open dashboards alongside when the
// step asks for them (loads.<step>.churn, loads.<step>.dashboard).
load::LoadResult drive(RepContext& ctx, const Step& s, const LoadStep& l, const load::LoadSpec& spec,
                       const std::string& label) {
    load::LoadHooks hooks;
    hooks.stop = &ctx.env.interrupted;
    const auto figures = std::make_shared<live::LoadFigures>(load_begins(s.name, spec));
    if (ctx.env.figures) ctx.env.figures->load_update(*figures);
    hooks.on_progress = live_status(ctx, label, spec, figures);
    const auto dashboards = l.dashboards > 0 ? plan_dashboards(ctx, s, l.dashboards, spec.duration)
                                             : std::vector<DashboardLoad>{};
    load::LoadResult r;
    std::string load_error;
    std::atomic<bool> load_done{false};
    json::object churned;
    DashboardOutcome polled;
    {
        std::jthread dashboard_thread;
        if (!dashboards.empty()) dashboard_thread = std::jthread([&] { polled = run_dashboards(ctx, dashboards); });
        std::jthread loader([&] {
            try {
                r = load::run_load(spec, hooks);
            } catch (const std::exception& e) {
                load_error = e.what();
            }
            load_done = true;
        });
        if (l.churn_per_s > 0) churned = run_admin_churn(ctx, s, l.churn_per_s, load_done);  // never throws
    }
    for (const auto& [metric, value] : polled.metrics) ctx.put(s.name + "." + metric, value);
    if (!load_error.empty()) throw StepFailure("load: " + load_error);
    if (ctx.env.figures) {
        set_result(*figures, r);
        ctx.env.figures->load_update(*figures);
    }
    if (label == s.name) {  // the step's own load, not one level of a search
        ctx.record.loads[s.name] = r.to_json();
        if (!churned.empty()) ctx.record.loads[s.name].as_object()["churn"] = churned;
        if (!polled.record.empty()) ctx.record.loads[s.name].as_object()["dashboard"] = polled.record;
        if (r.latency_intervals.enabled()) write_hdr_log(ctx, s, r);
    }
    return r;
}

void put_latency(const MetricSink& put, const std::string& prefix, const load::LoadResult& r, const char* group,
                 std::initializer_list<int> percentiles) {
    auto it = r.latency.find(group);
    if (it == r.latency.end() || it->second.count() == 0) return;
    for (int p : percentiles)
        put(prefix + "p" + std::to_string(p) + "_ms", static_cast<double>(it->second.value_at_percentile(p)) / 1000.0);
}

void put_client_metrics(const MetricSink& put, const load::LoadResult& r) {
    const double elapsed = r.elapsed_s > 0 ? r.elapsed_s : 1;
    const std::uint64_t ok = r.ok_count();
    put("rps", static_cast<double>(r.completed) / elapsed);
    put("ok_rps", static_cast<double>(ok) / elapsed);
    put_latency(put, "", r, "all", {50, 90, 95, 99});
    // Latency of the successful answers alone: a fast 429 must not flatter the service.
    put_latency(put, "ok_", r, "2xx", {50, 95, 99});
    put("error_pct", r.error_pct());
    put("client_cpu_pct", r.cpu.cores_used * 100.0);
    if (r.completed > 0) put("client_cpu_us_per_req", r.cpu.us_per_request);
    if (r.model == load::Model::open)
        put("late_pct", r.sent > 0 ? 100.0 * static_cast<double>(r.late) / static_cast<double>(r.sent) : 0);
}

// The box over the load's window; its CPU seconds when there is a window.
std::optional<double> put_box_metrics(RepContext& ctx, const MetricSink& put, const std::string& window_name,
                                      const load::LoadResult& r, RepClock::time_point t0, RepClock::time_point t1) {
    auto w = ctx.window(t0, t1, window_name);
    if (!w || !w->cpu_pct) return std::nullopt;
    put("box_cpu_pct", *w->cpu_pct);
    const double box_cpu_us = *w->cpu_pct / 100.0 * w->duration_s * 1e6;
    if (r.completed > 0) put("box_cpu_us_per_req", box_cpu_us / static_cast<double>(r.completed));
    if (w->mem_current) put("mem_max_mib", static_cast<double>(w->mem_current->max) / 1048576.0);
    if (w->anon) put("anon_mean_mib", w->anon->mean / 1048576.0);
    if (w->mem_peak) put("peak_since_start_mib", static_cast<double>(w->mem_peak->last) / 1048576.0);
    if (w->throttled_us) put("throttled_ms", static_cast<double>(*w->throttled_us) / 1000.0);
    if (r.completed == 0) return std::nullopt;
    const double completed = static_cast<double>(r.completed);
    return box_cpu_us / completed * completed / 1e6;  // as the per-request metric, so both agree
}

// Protocol, cipher and ALPN of one handshake with the endpoint after a
// TLS load: TLS 1.2 against 1.3 changes what a handshake costs.
void record_tls_session(RepContext& ctx, const Step& s, const std::string& base_url) {
    if (ctx.state.proxy_tls.key_type.empty() || !base_url.starts_with("https://")) return;
    try {
        auto [host, port] = target::split_host_port(base_url.substr(8), "endpoint");
        auto h = tls::handshake_with(host, port, std::chrono::seconds(5));
        ctx.record.tls_sessions[s.name] = {{"key_type", ctx.state.proxy_tls.key_type}, {"protocol", h.protocol},
                                           {"cipher", h.cipher}, {"alpn", h.alpn}};
    } catch (const std::exception& e) {
        ctx.record.finding(detect::Finding{"tls-session-unknown", ctx.scope(s), e.what()});
    }
}

// The load `run` drives, measured as every load is: the client's metrics,
// the box's over the window `label`, the load detectors' findings.
struct Measured {
    load::LoadResult result;
    std::optional<double> box_cpu_s;
};

Measured measure(RepContext& ctx, const Step& s, const std::string& label, const MetricSink& put,
                 const std::function<load::LoadResult()>& run) {
    const auto t0 = ctx.window_start();
    Measured m{run(), std::nullopt};
    const auto t1 = RepClock::now();
    put_client_metrics(put, m.result);
    m.box_cpu_s = put_box_metrics(ctx, put, label, m.result, t0, t1);
    for (auto& f : detect::check_load(m.result, ctx.scope(s) + (label == s.name ? "" : ", " + label))) ctx.record.finding(f);
    return m;
}

}  // namespace

load::LoadSpec load_spec(RepContext& ctx, const Step& s, const LoadStep& l) {
    load::LoadSpec spec;
    spec.links = load_links(ctx, s, l);
    spec.model = l.rate ? load::Model::open : load::Model::closed;
    spec.rate = l.rate.value_or(0);
    spec.connections = l.connections;
    spec.threads = l.threads;
    spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(l.duration);
    spec.timeout = l.request_timeout;
    spec.keepalive = l.keepalive;
    spec.allow_remote = ctx.env.scenario.allow_remote;
    for (const auto& h : l.headers) spec.identity.headers.push_back(load::parse_header(h));
    if (l.xff_per_link) spec.identity.xff_pattern = std::string(load::kDefaultXffPattern);
    spec.identity.bind_prefix = l.bind_prefix;
    spec.warmup_once = l.warmup_once;
    spec.cpus = ctx.env.generator_cpus;
    if (ctx.state.proxy_tls.ca_file) spec.tls.ca_file = ctx.state.proxy_tls.ca_file->string();
    return spec;
}

load::LoadResult measure_load_here(RepContext& ctx, const Step& s, const LoadStep& l, const load::LoadSpec& spec,
                                   const std::string& label, const MetricSink& put) {
    return measure(ctx, s, label, put, [&] { return drive(ctx, s, l, spec, label); }).result;
}

void run_load(RepContext& ctx, const Step& s, RepClock::time_point) {
    const auto& l = s.action.get<LoadStep>();
    load::LoadSpec spec = load_spec(ctx, s, l);
    const MetricSink put = [&](const std::string& suffix, double v) { ctx.put(s.name + "." + suffix, v); };
    ProxyLoadInputs proxy{s.name, ctx.scope(s), 0, 0, 0, 0, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                          ctx.state.upstream_keepalive.has_value() && !*ctx.state.upstream_keepalive};
    std::optional<double> backend_cpu_before;
    const bool backend_behind = ctx.env.backend != nullptr && ctx.env.through_proxy;
    if (backend_behind) {
        proxy.backend_before = ctx.backend_stats(s);
        backend_cpu_before = ctx.env.backend->cpu_seconds();
    }
    const bool elsewhere = !l.generators.empty() || (l.from_controller && ctx.env.controller != nullptr);
    if (!elsewhere)  // hdr/<key>.<step>.hlog: in 1 s intervals, longer ones where those would keep too many
        spec.histogram_interval =
            load::interval_within_budget(std::chrono::seconds(1), spec.duration, spec.timeout, spec.threads);
    const auto [r, box_cpu_s] = measure(ctx, s, s.name, put, [&] {
        return !l.generators.empty() ? run_from_generators(ctx, s, l, spec)
               : elsewhere           ? run_from_controller(ctx, s, l, spec)
                                     : drive(ctx, s, l, spec, s.name);
    });
    proxy.box_cpu_s = box_cpu_s;

    proxy.completed = r.completed;
    proxy.connections = r.connections_opened;
    proxy.tls_handshakes = r.tls_handshakes;
    proxy.client_cpu_s = r.cpu.user_s + r.cpu.system_s;
    if (backend_behind) {
        proxy.backend_after = ctx.backend_stats(s);
        if (auto now = ctx.env.backend->cpu_seconds(); now && backend_cpu_before) proxy.backend_cpu_s = *now - *backend_cpu_before;
    }
    add_proxy_load_metrics(proxy, ctx.record.metrics, ctx.record.findings);
    if (!spec.links.empty() && !elsewhere) record_tls_session(ctx, s, spec.links.front().url.substr(0, spec.links.front().url.find('/', 8)));
}

}  // namespace stand::scenario::steps
