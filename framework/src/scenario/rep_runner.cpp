#include "scenario/rep_runner.hpp"

#include "box/box_processes.hpp"
#include "box/process_placement.hpp"
#include "detect/box_cpu.hpp"
#include "detect/go_runtime.hpp"
#include "detect/probe_aliasing.hpp"
#include "detect/load_detectors.hpp"
#include "isolation/plugin_worker.hpp"
#include "load/link_pattern.hpp"
#include "load/idle_hold.hpp"
#include "load/load_engine.hpp"
#include "load/ws_echo_load.hpp"
#include "scenario/data_bytes.hpp"
#include "scenario/probe_result.hpp"
#include "scenario/proxy_load_metrics.hpp"
#include "scenario/proxy_setup.hpp"
#include "scenario/step_metrics.hpp"
#include "tls/peer_certificate.hpp"
#include "target/readiness_poll.hpp"
#include "scenario/tunnel_steps.hpp"
#include "tunnel/tunnel_run.hpp"

#include <stand/stand.h>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <filesystem>
#include <optional>
#include <set>
#include <sys/resource.h>
#include <thread>

namespace stand::scenario {
namespace {

using Clock = std::chrono::steady_clock;
namespace json = boost::json;

struct StepFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Rep {
    Rep(RepEnvironment& e, isolation::PluginWorker& w) : env(e), worker(w) {}

    RepEnvironment& env;
    isolation::PluginWorker& worker;
    host::HttpService http{host::HttpPolicy{}};
    json::object doc;
    json::object metrics;
    json::array steps;
    json::object loads, windows;
    json::array findings;
    json::object probe_facts;  // run_probe step name -> the probe's facts
    json::array notes;         // the probes' caveats, each once
    ProxyTls proxy_tls;        // what the last configure step set up
    json::object proxy_defaults;  // configure step name -> the proxy's effective_defaults()
    json::object proxy_set;       // configure step name -> the settings the scenario had set by then
    std::set<std::string> set_so_far;  // knobs persist from one configure step to the next
    json::object tls_sessions;    // load step name -> protocol, cipher, ALPN, key type served
    Clock::time_point last_start = Clock::now();
    const Clock::time_point rep_start = Clock::now();
    std::optional<detect::GoProcessScanner> go_processes;  // the Go programs seen in the measured box
    struct User {
        std::string id;
        json::object subscription;  // {method, url, headers}
    };
    std::vector<User> users;  // created by create_users steps, in order

    const PluginRef& plugin() const { return env.scenario.plugins[env.planned.plugin]; }
    std::string scope(const Step& s) const {
        return plugin().label + " rep " + std::to_string(env.planned.rep) + ", step " + s.name;
    }

    json::value call(const std::string& method, const json::object& args, std::chrono::milliseconds timeout) {
        auto reply = worker.call(method, args, timeout);
        if (!reply.ok())
            throw StepFailure(method + ": " + (reply.error.empty() ? std::string(stand_result_name(reply.code)) : reply.error));
        return reply.output;
    }

    void sleep_for(Seconds d) {
        auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(d);
        while (Clock::now() < until) {
            if (env.interrupted.load()) throw StepFailure("interrupted");
            std::this_thread::sleep_for(std::min<Clock::duration>(until - Clock::now(), std::chrono::milliseconds(50)));
        }
    }

    std::optional<sampler::WindowStats> window(Clock::time_point t0, Clock::time_point t1, const std::string& name) {
        if (env.sampler == nullptr) return std::nullopt;
        env.sampler->sample_now();
        try {
            auto w = env.sampler->window(t0, t1);
            windows[name] = w.to_json(env.sampler->epoch());
            return w;
        } catch (const sampler::WindowError& e) {
            findings.push_back(detect::Finding{"short-window", name, e.what()}.to_json());
            return std::nullopt;
        }
    }

    void put(const std::string& key, double value) { metrics[key] = value; }

    void memory_metrics(const std::string& name, const sampler::WindowStats& w) {
        constexpr double kMiB = 1024.0 * 1024.0;
        if (w.cpu_pct) put(name + ".cpu_pct", *w.cpu_pct);
        if (w.mem_current) {
            put(name + ".mem_mean_mib", w.mem_current->mean / kMiB);
            put(name + ".mem_max_mib", static_cast<double>(w.mem_current->max) / kMiB);
        }
        if (w.anon) put(name + ".anon_mean_mib", w.anon->mean / kMiB);
        if (w.working_set) put(name + ".workset_mean_mib", w.working_set->mean / kMiB);
        if (w.procs) put(name + ".procs", static_cast<double>(w.procs->last));
    }

    json::object readiness(std::chrono::milliseconds timeout) {
        auto r = call("lifecycle.readiness", {}, timeout);
        if (!r.is_object() || !r.as_object().contains("url"))
            throw StepFailure("lifecycle.readiness: the plugin did not describe a request with a \"url\"");
        return r.as_object();
    }

    void wait_ready(const Step& s, Clock::time_point origin, std::chrono::milliseconds interval,
                    std::chrono::milliseconds per_try, Clock::time_point deadline) {
        auto spec = readiness(s.timeout);
        try {
            // The plugin's processes live in its worker: ask it each round whether one ended.
            target::ExitWatch exits = [this] {
                auto reply = worker.ended_processes(std::chrono::seconds(5));
                return reply.ok() ? host::ended_processes_from_json(reply.output) : std::vector<host::EndedProcess>{};
            };
            auto ready = target::poll_until_ready(http, spec, origin, interval, per_try, deadline, env.interrupted, exits);
            put(s.name + ".seconds", ready.seconds);
        } catch (const std::exception& e) {
            throw StepFailure(e.what());
        }
    }

    // Sum of 429 waits in the worker's HTTP call log so far: (count, seconds).
    std::pair<double, double> waits_so_far() {
        auto reply = worker.http_calls(std::chrono::seconds(30));
        double count = 0, ms = 0;
        if (reply.ok() && reply.output.is_array())
            for (const auto& c : reply.output.as_array()) {
                const auto& o = c.as_object();
                if (auto* w = o.if_contains("retry_waits")) count += w->to_number<double>();
                if (auto* w = o.if_contains("waited_ms")) ms += w->to_number<double>();
            }
        return {count, ms / 1000.0};
    }

    void create_users(const Step& s, const CreateUsersStep& c, Clock::time_point deadline) {
        const auto before = waits_so_far();
        std::vector<double> call_ms;
        const auto t0 = Clock::now();
        for (std::uint32_t i = 1; i <= c.count; ++i) {
            if (env.interrupted.load()) throw StepFailure("interrupted");
            if (Clock::now() > deadline)
                throw StepFailure("created " + std::to_string(i - 1) + " of " + std::to_string(c.count) +
                                  " users before the timeout");
            const std::string name = c.prefix + std::to_string(i);
            const auto started = Clock::now();
            auto out = call("panel.create_user", {{"name", name}}, s.timeout);
            call_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - started).count());
            const auto* o = out.if_object();
            if (o == nullptr || !o->contains("id") || !o->at("id").is_string() || !o->contains("subscription") ||
                !o->at("subscription").is_object())
                throw StepFailure("panel.create_user(" + name + ") returned no {id, subscription}: " + json::serialize(out));
            users.push_back({std::string(o->at("id").as_string()), o->at("subscription").as_object()});
        }
        const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
        const auto after = waits_so_far();
        std::sort(call_ms.begin(), call_ms.end());
        auto pct = [&](double p) {
            return call_ms[static_cast<std::size_t>(p * static_cast<double>(call_ms.size() - 1))];
        };
        put(s.name + ".seconds", wall);
        put(s.name + ".users", static_cast<double>(c.count));
        put(s.name + ".call_p50_ms", pct(0.5));
        put(s.name + ".call_p99_ms", pct(0.99));
        put(s.name + ".call_max_ms", call_ms.back());
        // Rate-limit waits apart from the wall time: the panel's cost vs its limiter's.
        put(s.name + ".waits_429", after.first - before.first);
        put(s.name + ".wait_429_s", after.second - before.second);
        put(s.name + ".seconds_excl_429", wall - (after.second - before.second));
    }

    // After a restart: until panel.admin_call succeeds (the plugin logs in
    // again as needed), every 100 ms, timed from the restart command.
    void admin_api_back(const Step& s, Clock::time_point origin, Clock::time_point deadline) {
        std::string last;
        while (Clock::now() < deadline) {
            if (env.interrupted.load()) throw StepFailure("interrupted");
            auto reply = worker.call("panel.admin_call", {}, std::chrono::seconds(10));
            if (reply.ok()) {
                put(s.name + ".admin_api_seconds", std::chrono::duration<double>(Clock::now() - origin).count());
                return;
            }
            if (reply.failure != isolation::WorkerReply::Failure::kNone)
                throw StepFailure("panel.admin_call: " + reply.error);
            last = reply.error;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        throw StepFailure("the admin API did not answer before the step's timeout; last error: " + last);
    }

    // Seed onebox phase D: `per_s` times a second (drift-corrected) add user
    // churn<i>, delete churn<i-1>, one admin call; each timed. Errors are
    // counted, not thrown: the load thread runs meanwhile.
    json::object churn(const Step& s, double per_s, const std::atomic<bool>& done) {
        std::vector<double> add_ms, del_ms, call_ms;
        json::array errors;
        std::size_t error_count = 0;
        auto note = [&](const std::string& what, const isolation::WorkerReply& reply) {
            ++error_count;
            if (errors.size() < 10) errors.emplace_back(what + ": " + reply.error);
        };
        auto timed = [&](const std::string& method, const json::object& args, std::vector<double>& into) {
            const auto started = Clock::now();
            auto reply = worker.call(method, args, std::chrono::seconds(30));
            into.push_back(std::chrono::duration<double, std::milli>(Clock::now() - started).count());
            if (!reply.ok()) note(method, reply);
            return reply;
        };
        const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / per_s));
        auto next = Clock::now();
        std::string previous;
        for (int i = 1; !done.load() && !env.interrupted.load() && worker.alive(); ++i) {
            auto added = timed("panel.create_user", {{"name", "churn" + std::to_string(i)}}, add_ms);
            if (!previous.empty()) timed("panel.delete_user", {{"id", previous}}, del_ms);
            previous.clear();
            if (added.ok() && added.output.is_object())
                if (const auto* id = added.output.as_object().if_contains("id"); id && id->is_string())
                    previous = std::string(id->as_string());
            timed("panel.admin_call", {}, call_ms);
            next += period;
            while (Clock::now() < next && !done.load()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (!previous.empty() && worker.alive()) timed("panel.delete_user", {{"id", previous}}, del_ms);
        auto stats = [&](const char* name, std::vector<double>& v) {
            if (v.empty()) return;
            std::sort(v.begin(), v.end());
            auto at = [&](double p) { return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))]; };
            put(s.name + ".admin_" + name + "_p50_ms", at(0.5));
            put(s.name + ".admin_" + name + "_p95_ms", at(0.95));
            put(s.name + ".admin_" + name + "_max_ms", v.back());
        };
        stats("add", add_ms);
        stats("del", del_ms);
        stats("call", call_ms);
        put(s.name + ".admin_errors", static_cast<double>(error_count));
        return {{"adds", add_ms.size()}, {"deletes", del_ms.size()}, {"calls", call_ms.size()},
                {"error_count", error_count}, {"errors", errors}};
    }

    void disk_usage(const Step& s) {
        auto facts = call("lifecycle.facts", {}, s.timeout);
        const auto* dirs = facts.is_object() ? facts.as_object().if_contains("data_dirs") : nullptr;
        if (dirs == nullptr || !dirs->is_array()) throw StepFailure("lifecycle.facts has no data_dirs");
        std::vector<std::filesystem::path> roots;
        for (const auto& d : dirs->as_array())
            if (d.is_string()) roots.emplace_back(std::string(d.as_string()));
        put(s.name + ".data_mib", data_bytes(roots) / 1048576.0);
        if (const auto* c = facts.as_object().if_contains("containers"); c && c->is_number())
            put(s.name + ".containers", c->to_number<double>());
        if (const auto* arts = facts.as_object().if_contains("artifacts"); arts && arts->is_array()) {
            double a = 0;
            for (const auto& x : arts->as_array())
                if (const auto* b = x.is_object() ? x.as_object().if_contains("bytes") : nullptr)
                    a += b->to_number<double>();
            put(s.name + ".artifacts_mib", a / 1048576.0);
        }
    }

    std::vector<load::Link> load_links(const Step& s, const LoadStep& l) {
        std::vector<load::Link> links;
        if (l.subscription_links) {
            if (users.empty()) throw StepFailure("a subscriptions load needs users: add a create_users step before it");
            for (const auto& u : users) {
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

        for (const auto& u : l.urls) links.push_back({"GET", u, {}, {}});
        if (!links.empty()) return links;
        links.push_back({"GET", endpoint_base(s) + l.path, {}, {}});
        return links;
    }

    // "scheme://host:port" of the plugin: proxy.endpoint(), else the readiness URL's.
    std::string endpoint_base(const Step& s) {
        auto endpoint = worker.call("proxy.endpoint", {}, s.timeout);
        if (endpoint.ok()) {
            const auto& e = endpoint.output.as_object();
            return std::string(e.at("scheme").as_string()) + "://" + std::string(e.at("host").as_string()) + ":" +
                   std::to_string(e.at("port").to_number<std::int64_t>());
        }
        std::string url(readiness(s.timeout).at("url").as_string());
        return url.substr(0, url.find('/', url.find("://") + 3));
    }

    struct Target {
        bool tls = false;
        std::string host;
        std::uint16_t port = 0;
    };
    Target endpoint_target(const Step& s) {
        const std::string base = endpoint_base(s);
        const auto scheme_end = base.find("://");
        Target t;
        t.tls = base.starts_with("https://");
        try {
            std::tie(t.host, t.port) = target::split_host_port(base.substr(scheme_end + 3), "endpoint");
        } catch (const std::exception& e) {
            throw StepFailure(std::string("step ") + s.name + ": " + e.what());
        }
        return t;
    }

    void run_websocket(const Step& s, const WebsocketStep& a) {
        const Target t = endpoint_target(s);
        if (t.tls) throw StepFailure("step " + s.name + ": the websocket step speaks ws:// only; configure tls \"off\" before it");
        load::WsEchoSpec spec;
        spec.host = t.host;
        spec.port = t.port;
        spec.path = a.path;
        spec.connections = a.connections;
        spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(a.duration);
        spec.message_bytes = a.message_bytes;
        spec.cpus = env.generator_cpus;
        std::optional<target::BackendStats> before;
        if (env.backend != nullptr) before = backend_stats(s);
        const auto t0 = Clock::now();
        load::WsEchoResult r;
        try {
            r = load::run_ws_echo(spec, &env.interrupted);
        } catch (const std::exception& e) {
            throw StepFailure("step " + s.name + ": " + e.what());
        }
        const auto t1 = Clock::now();
        loads[s.name] = r.to_json();
        put(s.name + ".ws_connected", r.connected);
        put(s.name + ".ws_failed", r.failed);
        put(s.name + ".ws_dropped", r.dropped);
        put(s.name + ".ws_echoes_per_s", r.elapsed_s > 0 ? static_cast<double>(r.echoes) / r.elapsed_s : 0);
        if (r.rtt_us.count() > 0) {
            put(s.name + ".ws_rtt_p50_ms", static_cast<double>(r.rtt_us.value_at_percentile(50)) / 1000.0);
            put(s.name + ".ws_rtt_p99_ms", static_cast<double>(r.rtt_us.value_at_percentile(99)) / 1000.0);
        }
        if (r.echoes > 0) put(s.name + ".client_cpu_us_per_echo", r.cpu_s * 1e6 / static_cast<double>(r.echoes));
        if (auto w = window(t0, t1, s.name); w && w->cpu_pct) {
            put(s.name + ".box_cpu_pct", *w->cpu_pct);
            if (r.echoes > 0)
                put(s.name + ".box_cpu_us_per_echo",
                    *w->cpu_pct / 100.0 * w->duration_s * 1e6 / static_cast<double>(r.echoes));
            if (w->mem_current) put(s.name + ".mem_max_mib", static_cast<double>(w->mem_current->max) / 1048576.0);
        }
        if (before) put(s.name + ".backend_ws_sessions", static_cast<double>(backend_stats(s).ws_sessions - before->ws_sessions));
        if (r.failed > 0 || r.dropped > 0 || r.mismatched > 0)
            findings.push_back(detect::Finding{"websocket-failures", scope(s),
                                               std::to_string(r.failed) + " of " + std::to_string(a.connections) +
                                                   " upgrades failed, " + std::to_string(r.dropped) +
                                                   " sessions dropped, " + std::to_string(r.mismatched) +
                                                   " echoes differed" +
                                                   (r.errors.empty() ? std::string() : "; first: " + r.errors.front())}
                                   .to_json());
    }

    void run_hold_idle(const Step& s, const HoldIdleStep& a) {
        const Target t = endpoint_target(s);
        load::IdleHoldSpec spec;
        spec.host = t.host;
        spec.port = t.port;
        spec.tls = t.tls;
        spec.connections = a.connections;
        spec.hold = std::chrono::duration_cast<std::chrono::nanoseconds>(a.hold);
        spec.cpus = env.generator_cpus;
        const auto t0 = Clock::now();
        load::IdleHoldResult r;
        try {
            r = load::hold_idle_connections(spec, &env.interrupted);
        } catch (const std::exception& e) {
            throw StepFailure("step " + s.name + ": " + e.what());
        }
        loads[s.name] = r.to_json();
        put(s.name + ".idle_opened", r.opened);
        put(s.name + ".idle_failed", r.failed);
        put(s.name + ".idle_closed", r.closed);
        put(s.name + ".idle_held", r.held);
        put(s.name + ".idle_open_s", r.open_s);
        if (auto w = window(t0, Clock::now(), s.name)) {
            if (w->cpu_pct) put(s.name + ".box_cpu_pct", *w->cpu_pct);
            if (w->mem_current) put(s.name + ".mem_max_mib", static_cast<double>(w->mem_current->max) / 1048576.0);
        }
        if (r.held < a.connections)
            findings.push_back(detect::Finding{"idle-not-held", scope(s),
                                               std::to_string(r.held) + " of " + std::to_string(a.connections) +
                                                   " idle connections were still open after " +
                                                   std::to_string(std::lround(a.hold.count())) + " s (" +
                                                   std::to_string(r.failed) + " failed to open, " +
                                                   std::to_string(r.closed) + " closed by the server)" +
                                                   (r.errors.empty() ? std::string() : "; first: " + r.errors.front())}
                                   .to_json());
    }

    hysteria::HysteriaLink tunnel_link(const Step& s, const TunnelSource& source, std::uint32_t user) {
        try {
            if (!source.server.empty()) return hysteria::parse_hysteria_link(source.server);
            if (user >= users.size())
                throw StepFailure("step " + s.name + " uses user " + std::to_string(user) + " but " +
                                  std::to_string(users.size()) +
                                  " users exist: add a create_users step before it, or give \"server\"");
            return hysteria_link_of(http, users[user].subscription, "user " + std::to_string(user) + " (" + users[user].id + ")");
        } catch (const StepFailure&) {
            throw;
        } catch (const std::exception& e) {
            throw StepFailure("step " + s.name + ": " + e.what());
        }
    }

    std::string tunnel_sink(const Step& s, const TunnelSource& source) {
        if (!source.sink.empty()) return source.sink;
        if (env.backend == nullptr)
            throw StepFailure("step " + s.name + " needs a sink: give \"sink\" or a top-level \"backend\" (its /zero and /small)");
        return env.backend->host() + ":" + std::to_string(env.backend->port());
    }

    std::optional<sampler::WindowStats> tunnel_window_metrics(const Step& s, Clock::time_point t0, Clock::time_point t1,
                                                              double mbit) {
        auto w = window(t0, t1, s.name);
        if (!w) return w;
        if (w->cpu_pct) {
            put(s.name + ".box_cpu_pct", *w->cpu_pct);
            // Below 1 % of a core the box did not carry the tunnel; a ratio
            // over that would be a huge, meaningless number.
            if (mbit > 0 && *w->cpu_pct >= 1.0) {
                put(s.name + ".mbit_per_cpu_s", mbit / (*w->cpu_pct / 100.0));
            } else if (mbit > 0) {
                char pct[32];
                std::snprintf(pct, sizeof pct, "%.2f", *w->cpu_pct);
                findings.push_back(detect::Finding{"tunnel-outside-box", scope(s),
                                                   "the box used " + std::string(pct) + " % of a core while " +
                                                       std::to_string(std::lround(mbit)) +
                                                       " Mbit/s went through the tunnel: the Hysteria server is not "
                                                       "in the box, so there is no Mbit per box CPU-second"}
                                       .to_json());
            }
        }
        if (w->anon) put(s.name + ".anon_mean_mib", w->anon->mean / 1048576.0);
        if (w->mem_current) put(s.name + ".mem_max_mib", static_cast<double>(w->mem_current->max) / 1048576.0);
        return w;
    }

    // probe-aliasing: a periodic probe in step with the box's CFS period while it was throttled.
    void check_aliasing(const Step& s, const detect::PeriodicProbe& probe, const std::optional<sampler::WindowStats>& w) {
        if (!w || !w->throttled_periods) return;
        const auto box = detect::box_cpu_of(env.preface.if_contains("box"));
        detect::StepThrottling t{box.period_us, w->periods.value_or(0), *w->throttled_periods,
                                 w->throttled_us.value_or(0)};
        if (auto f = detect::check_probe_aliasing(probe, t, scope(s))) findings.push_back(f->to_json());
    }

    void scan_box_processes() {
        if (go_processes) go_processes->scan();
    }

    // go-runtime-oversized over the Go programs seen, with the repetition's throttling.
    void check_go_runtimes() {
        if (!go_processes || go_processes->found().empty()) return;
        json::array seen;
        for (const auto& p : go_processes->found()) seen.push_back(p.to_json());
        doc["go_runtimes"] = std::move(seen);
        std::optional<detect::Throttling> throttling;
        if (env.sampler != nullptr) {
            env.sampler->sample_now();
            try {
                const auto w = env.sampler->window(rep_start, Clock::now());
                if (w.periods)
                    throttling = detect::Throttling{*w.periods, w.throttled_periods.value_or(0), w.throttled_us.value_or(0)};
            } catch (const sampler::WindowError&) {
                // too short for a window: the finding says there were no counters
            }
        }
        auto verdict = detect::check_go_runtimes(go_processes->found(), detect::box_cpu_of(env.preface.if_contains("box")).vcpu,
                                                 throttling, plugin().label + " rep " + std::to_string(env.planned.rep));
        for (const auto& f : verdict.findings) findings.push_back(f.to_json());
        json::array caveats;
        for (const auto& n : verdict.notes) caveats.emplace_back(n);
        if (!caveats.empty()) doc["go_runtime_notes"] = std::move(caveats);
    }

    std::vector<box::BoxProcess> measured_processes() const {
        auto it = env.host.boxes.find("measured");
        return it == env.host.boxes.end() ? std::vector<box::BoxProcess>{} : box::box_processes(it->second);
    }

    // Which of the box's processes the step saw end and start: a core the
    // panel restarted shows as a new PID under the same name.
    void record_process_changes(const Step& s, const std::vector<box::BoxProcess>& before) {
        if (env.host.boxes.find("measured") == env.host.boxes.end()) return;
        const auto after = measured_processes();
        const auto changes = box::compare_processes(before, after);
        loads[s.name].as_object()["box_processes"] = changes.to_json(before, after);
        put(s.name + ".processes_replaced", static_cast<double>(changes.replaced.size()));
        if (!changes.replaced.empty()) {
            std::string list;
            for (const auto& r : changes.replaced) list += (list.empty() ? "" : "; ") + r;
            findings.push_back(detect::Finding{"box-process-replaced", scope(s),
                                               "during the step the box's processes were replaced (name, PIDs before -> "
                                               "after): " + list}
                                   .to_json());
        }
    }

    // The tunnel runs on its own thread; a `during` step runs here alongside
    // it. A failure of either is reported after both ended, with the other's
    // metrics kept.
    void run_tunnel_step(const Step& s, const TunnelStep& a) {
        tunnel::TunnelSpec spec;
        spec.link = tunnel_link(s, a.source, a.source.user);
        spec.sink = tunnel_sink(s, a.source);
        spec.streams = a.streams;
        spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(a.duration);
        spec.probe_interval = a.probe_interval;
        spec.below_mbit = a.below_mbit;
        spec.congestion_control = a.source.cc;
        spec.allow_remote = env.scenario.allow_remote;
        tunnel::TunnelHooks hooks;
        hooks.stop = &env.interrupted;
        const auto processes_before = measured_processes();
        std::optional<tunnel::TunnelResult> result;
        std::string tunnel_error;
        const auto t0 = Clock::now();
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
                sleep_for(a.during_after);
                run_step(*a.during);
            } catch (const StepFailure& e) {
                inner_failure = e;
            }
        }
        runner.join();
        const auto t1 = Clock::now();
        if (!tunnel_error.empty()) throw StepFailure("step " + s.name + ": " + tunnel_error);
        loads[s.name] = result->to_json();
        put_tunnel_metrics([this](const std::string& k, double v) { put(k, v); }, s.name, *result);
        record_process_changes(s, processes_before);
        check_aliasing(s, {"the small request", result->probe_interval_ms, result->probes_sent},
                       tunnel_window_metrics(s, t0, t1, result->mbit_mean));
        if (result->streams_dropped > 0 || result->reconnects > 0 || result->connection_losses > 0)
            findings.push_back(detect::Finding{"tunnel-disrupted", scope(s),
                                               std::to_string(result->streams_dropped) + " stream(s) dropped, " +
                                                   std::to_string(result->connection_losses) + " connection loss(es), " +
                                                   std::to_string(result->reconnects) + " reconnect(s)" +
                                                   (result->loss_reasons.empty() ? std::string()
                                                                                 : "; first: " + result->loss_reasons.front())}
                                   .to_json());
        if (result->bytes == 0)
            throw StepFailure("step " + s.name + ": no byte came through the tunnel" +
                              (result->warnings.empty() ? std::string() : " (" + result->warnings.front() + ")"));
        if (inner_failure) throw *inner_failure;
    }

    void run_many_clients_step(const Step& s, const ManyClientsStep& a) {
        tunnel::ManyClientsSpec spec;
        // Each client's link is its user's subscription, fetched before the
        // window: timed apart from it (the step's default timeout allows for it).
        const auto links_t0 = Clock::now();
        for (std::uint32_t i = 0; i < a.clients; ++i) {
            if (!a.source.server.empty()) {
                spec.links.push_back(tunnel_link(s, a.source, i));
                continue;
            }
            if (i >= users.size())
                throw StepFailure("step " + s.name + " wants " + std::to_string(a.clients) + " clients, each with its own user, but " +
                                  std::to_string(users.size()) + " users exist");
            spec.links.push_back(tunnel_link(s, a.source, i));
        }
        put(s.name + ".links_s", std::chrono::duration<double>(Clock::now() - links_t0).count());
        spec.sink = tunnel_sink(s, a.source);
        spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(a.duration);
        spec.ramp = std::chrono::duration_cast<std::chrono::nanoseconds>(a.ramp);
        spec.every = std::chrono::duration_cast<std::chrono::nanoseconds>(a.every);
        spec.congestion_control = a.source.cc;
        spec.allow_remote = env.scenario.allow_remote;
        const auto t0 = Clock::now();
        tunnel::ManyClientsResult r;
        try {
            r = tunnel::run_many_clients(spec, &env.interrupted);
        } catch (const std::exception& e) {
            throw StepFailure("step " + s.name + ": " + e.what());
        }
        loads[s.name] = r.to_json();
        put_many_clients_metrics([this](const std::string& k, double v) { put(k, v); }, s.name, r);
        const auto w = tunnel_window_metrics(s, t0, Clock::now(), 0);
        // Clients started over a ramp of one CFS period or more meet every phase between them.
        const auto period = std::chrono::microseconds(detect::box_cpu_of(env.preface.if_contains("box")).period_us);
        if (spec.ramp < period) {
            const auto per_client = r.clients > 0 ? (r.requests_ok + r.requests_failed) / r.clients : 0;
            check_aliasing(s, {"each client's request", std::chrono::duration<double, std::milli>(a.every).count(), per_client}, w);
        }
        if (r.handshake_failures > 0 || r.requests_failed > 0 || r.disconnects > 0)
            findings.push_back(detect::Finding{"tunnel-clients-failed", scope(s),
                                               std::to_string(r.handshake_failures) + " of " + std::to_string(r.clients) +
                                                   " clients failed to connect, " + std::to_string(r.requests_failed) +
                                                   " requests failed, " + std::to_string(r.disconnects) + " disconnects" +
                                                   (r.errors.empty() ? std::string() : "; first: " + r.errors.front())}
                                   .to_json());
    }

    void configure_proxy(const Step& s, const ConfigureStep& a) {
        std::optional<UpstreamAddress> upstream;
        if (env.backend != nullptr) upstream = UpstreamAddress{env.backend->host(), env.backend->port()};
        ProxySetup setup;
        try {
            setup = compose_proxy_setup(a, upstream, env.dir.root() / "certs", proxy_tls);
        } catch (const std::exception& e) {
            throw StepFailure(std::string("configure: ") + e.what());
        }
        call("proxy.configure", {{"knobs", setup.knobs}}, s.timeout);
        proxy_tls = setup.tls;
        proxy_defaults[s.name] = call("proxy.effective_defaults", {}, s.timeout);
        note_settings_set(a);
        json::array set;
        for (const auto& k : set_so_far) set.emplace_back(k);
        proxy_set[s.name] = std::move(set);
    }

    // The effective_defaults() keys this step's knobs set; null (the proxy's
    // own default) unsets one.
    void note_settings_set(const ConfigureStep& a) {
        auto mark = [&](const std::string& key, bool set) {
            if (set) set_so_far.insert(key);
            else set_so_far.erase(key);
        };
        for (const auto& [k, v] : a.knobs) mark(k == "tls_key" ? "tls_key_type" : std::string(k), !v.is_null());
        if (a.upstream_keepalive) mark("upstream_keepalive", !a.upstream_keepalive->is_null());
        if (a.tls) mark("tls_key_type", *a.tls != "off");
        if (a.websocket) mark("websocket", true);
    }

    // Protocol, cipher and ALPN of one handshake with the endpoint after a
    // TLS load: TLS 1.2 against 1.3 changes what a handshake costs.
    void record_tls_session(const Step& s, const std::string& base_url) {
        if (proxy_tls.key_type.empty() || !base_url.starts_with("https://")) return;
        const auto hostport = base_url.substr(8);
        try {
            auto [host, port] = target::split_host_port(hostport, "endpoint");
            auto h = tls::handshake_with(host, port, std::chrono::seconds(5));
            tls_sessions[s.name] = {{"key_type", proxy_tls.key_type}, {"protocol", h.protocol},
                                    {"cipher", h.cipher}, {"alpn", h.alpn}};
        } catch (const std::exception& e) {
            findings.push_back(detect::Finding{"tls-session-unknown", scope(s), e.what()}.to_json());
        }
    }

    void run_load_step(const Step& s, const LoadStep& l) {
        load::LoadSpec spec;
        spec.links = load_links(s, l);
        spec.model = l.rate ? load::Model::open : load::Model::closed;
        spec.rate = l.rate.value_or(0);
        spec.connections = l.connections;
        spec.threads = l.threads;
        spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(l.duration);
        spec.timeout = l.request_timeout;
        spec.keepalive = l.keepalive;
        spec.allow_remote = env.scenario.allow_remote;
        for (const auto& h : l.headers) spec.identity.headers.push_back(load::parse_header(h));
        if (l.xff_per_link) spec.identity.xff_pattern = std::string(load::kDefaultXffPattern);
        spec.identity.bind_prefix = l.bind_prefix;
        spec.warmup_once = l.warmup_once;
        spec.cpus = env.generator_cpus;
        if (proxy_tls.ca_file) spec.tls.ca_file = proxy_tls.ca_file->string();
        std::optional<target::BackendStats> backend_before;
        std::optional<double> backend_cpu_before;
        if (env.backend != nullptr) {
            backend_before = backend_stats(s);
            backend_cpu_before = env.backend->cpu_seconds();
        }
        load::LoadHooks hooks;
        hooks.stop = &env.interrupted;
        auto t0 = Clock::now();
        load::LoadResult r;
        std::string load_error;
        std::atomic<bool> load_done{false};
        auto drive = [&] {
            try {
                r = load::run_load(spec, hooks);
            } catch (const std::exception& e) {
                load_error = e.what();
            }
            load_done = true;
        };
        json::object churned;
        if (l.churn_per_s > 0) {
            std::thread loader(drive);
            churned = churn(s, l.churn_per_s, load_done);  // never throws: the loader must be joined
            loader.join();
        } else {
            drive();
        }
        if (!load_error.empty()) throw StepFailure("load: " + load_error);
        auto t1 = Clock::now();
        loads[s.name] = r.to_json();
        if (!churned.empty()) loads[s.name].as_object()["churn"] = churned;
        const double elapsed = r.elapsed_s > 0 ? r.elapsed_s : 1;
        std::uint64_t ok = 0;
        for (const auto& [status, count] : r.status_counts)
            if (status >= 200 && status < 300) ok += count;
        put(s.name + ".rps", static_cast<double>(r.completed) / elapsed);
        put(s.name + ".ok_rps", static_cast<double>(ok) / elapsed);
        if (auto it = r.latency.find("all"); it != r.latency.end() && it->second.count() > 0) {
            put(s.name + ".p50_ms", static_cast<double>(it->second.value_at_percentile(50)) / 1000.0);
            put(s.name + ".p90_ms", static_cast<double>(it->second.value_at_percentile(90)) / 1000.0);
            put(s.name + ".p95_ms", static_cast<double>(it->second.value_at_percentile(95)) / 1000.0);
            put(s.name + ".p99_ms", static_cast<double>(it->second.value_at_percentile(99)) / 1000.0);
        }
        // Latency of the successful answers alone: a fast 429 must not flatter the service.
        if (auto it = r.latency.find("2xx"); it != r.latency.end() && it->second.count() > 0) {
            put(s.name + ".ok_p50_ms", static_cast<double>(it->second.value_at_percentile(50)) / 1000.0);
            put(s.name + ".ok_p95_ms", static_cast<double>(it->second.value_at_percentile(95)) / 1000.0);
            put(s.name + ".ok_p99_ms", static_cast<double>(it->second.value_at_percentile(99)) / 1000.0);
        }
        const double attempts = static_cast<double>(r.completed + r.errors);
        put(s.name + ".error_pct", attempts > 0 ? 100.0 * (attempts - static_cast<double>(ok)) / attempts : 0);
        put(s.name + ".client_cpu_pct", r.cpu.cores_used * 100.0);
        if (r.completed > 0) put(s.name + ".client_cpu_us_per_req", r.cpu.us_per_request);
        if (r.model == load::Model::open)
            put(s.name + ".late_pct", r.sent > 0 ? 100.0 * static_cast<double>(r.late) / static_cast<double>(r.sent) : 0);
        if (auto w = window(t0, t1, s.name); w && w->cpu_pct) {
            put(s.name + ".box_cpu_pct", *w->cpu_pct);
            double box_cpu_us = *w->cpu_pct / 100.0 * w->duration_s * 1e6;
            if (r.completed > 0) put(s.name + ".box_cpu_us_per_req", box_cpu_us / static_cast<double>(r.completed));
            if (w->mem_current) put(s.name + ".mem_max_mib", static_cast<double>(w->mem_current->max) / 1048576.0);
            if (w->anon) put(s.name + ".anon_mean_mib", w->anon->mean / 1048576.0);
            if (w->mem_peak) put(s.name + ".peak_since_start_mib", static_cast<double>(w->mem_peak->last) / 1048576.0);
            if (w->throttled_us) put(s.name + ".throttled_ms", static_cast<double>(*w->throttled_us) / 1000.0);
        }
        for (auto& f : detect::check_load(r, scope(s))) findings.push_back(f.to_json());

        ProxyLoadInputs proxy{s.name, scope(s), r.completed, r.connections_opened, r.tls_handshakes,
                              r.cpu.user_s + r.cpu.system_s, std::nullopt, backend_before, std::nullopt,
                              std::nullopt};
        if (auto it = metrics.find(s.name + ".box_cpu_us_per_req"); it != metrics.end() && r.completed > 0)
            proxy.box_cpu_s = it->value().as_double() * static_cast<double>(r.completed) / 1e6;
        if (env.backend != nullptr) {
            proxy.backend_after = backend_stats(s);
            if (auto now = env.backend->cpu_seconds(); now && backend_cpu_before)
                proxy.backend_cpu_s = *now - *backend_cpu_before;
        }
        add_proxy_load_metrics(proxy, metrics, findings);
        if (!spec.links.empty()) record_tls_session(s, spec.links.front().url.substr(0, spec.links.front().url.find('/', 8)));
    }

    target::BackendStats backend_stats(const Step& s) {
        try {
            return env.backend->stats();
        } catch (const std::exception& e) {
            throw StepFailure("step " + s.name + ": " + e.what());
        }
    }

    // The probe measures inside the worker, so the worker joins the measured
    // box for the step (limits and io throttling apply, samples see it).
    void run_probe(const Step& s, const ProbeStep& a, Clock::time_point deadline) {
        std::optional<box::ProcessPlacement> inside;
        if (auto it = env.host.boxes.find("measured"); it != env.host.boxes.end() && worker.pid() > 0) {
            try {
                inside.emplace(worker.pid(), it->second);
            } catch (const std::exception& e) {
                throw StepFailure(std::string("moving the probe into the box: ") + e.what());
            }
        }
        auto left = [&] {
            return std::max(std::chrono::milliseconds(1000),
                            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
        };
        call("probe.prepare", {{"job", a.job}, {"params", a.params}}, left());
        const auto t0 = Clock::now();
        auto out = call("probe.run", {{"job", a.job}}, left());
        const auto t1 = Clock::now();
        ProbeResult result;
        try {
            result = read_probe_result(out);
        } catch (const std::exception& e) {
            throw StepFailure(plugin().label + " probe.run of job '" + a.job + "' answered garbage: " + e.what());
        }
        for (const auto& [k, v] : result.metrics) put(s.name + "." + k, v);
        if (auto w = window(t0, t1, s.name); w && w->cpu_pct) put(s.name + ".box_cpu_pct", *w->cpu_pct);
        if (!result.facts.empty()) probe_facts[s.name] = result.facts;
        for (const auto& n : result.notes)
            if (std::find(notes.begin(), notes.end(), json::value(n)) == notes.end()) notes.emplace_back(n);
        call("probe.cleanup", {{"job", a.job}}, left());
    }

    // A metric a step emits is one its kind declares (scenario/steps/):
    // the tables, checks and docs are checked against the declarations.
    void check_declared_metrics(const Step& s, const std::set<std::string>& before) const {
        for (const auto& [key, value] : metrics) {
            (void)value;
            if (before.contains(std::string(key)) || produces_metric(s, key)) continue;
            throw StepFailure("internal error: step " + s.name + " emitted the metric " + std::string(key) +
                              ", which the " + s.kind + " step kind does not declare (framework/src/scenario/steps/)");
        }
    }

    void run_step(const Step& s) {
        const auto started = Clock::now();
        const auto deadline = started + s.timeout;
        std::set<std::string> before;
        for (const auto& [key, value] : metrics) {
            (void)value;
            before.insert(std::string(key));
        }
        std::visit(
            [&](const auto& a) {
                using A = std::decay_t<decltype(a)>;
                if constexpr (std::is_same_v<A, InstallStep>) call("lifecycle.install", {}, s.timeout);
                else if constexpr (std::is_same_v<A, StartStep>) {
                    last_start = Clock::now();
                    call("lifecycle.start", {}, s.timeout);
                } else if constexpr (std::is_same_v<A, StopStep>) call("lifecycle.stop", {}, s.timeout);
                else if constexpr (std::is_same_v<A, WipeStep>) call("lifecycle.wipe", {}, s.timeout);
                else if constexpr (std::is_same_v<A, WaitReadyStep>) wait_ready(s, last_start, a.interval, a.per_try_timeout, deadline);
                else if constexpr (std::is_same_v<A, RestartStep>) {
                    auto origin = Clock::now();
                    call("lifecycle.restart", {}, s.timeout);
                    put(s.name + ".command_seconds", std::chrono::duration<double>(Clock::now() - origin).count());
                    wait_ready(s, origin, a.interval, a.per_try_timeout, deadline);
                    if (a.admin_api) admin_api_back(s, origin, deadline);
                } else if constexpr (std::is_same_v<A, SleepStep>) sleep_for(a.duration);
                else if constexpr (std::is_same_v<A, IdleStep>) {
                    auto t0 = Clock::now();
                    sleep_for(a.duration);
                    if (auto w = window(t0, Clock::now(), s.name)) memory_metrics(s.name, *w);
                } else if constexpr (std::is_same_v<A, LoadStep>) run_load_step(s, a);
                else if constexpr (std::is_same_v<A, BootstrapStep>) {
                    auto t0 = Clock::now();
                    call("panel.bootstrap", {}, s.timeout);
                    put(s.name + ".seconds", std::chrono::duration<double>(Clock::now() - t0).count());
                } else if constexpr (std::is_same_v<A, CreateUsersStep>) create_users(s, a, deadline);
                else if constexpr (std::is_same_v<A, DiskUsageStep>) disk_usage(s);
                else if constexpr (std::is_same_v<A, ProbeStep>) run_probe(s, a, deadline);
                else if constexpr (std::is_same_v<A, ConfigureStep>) configure_proxy(s, a);
                else if constexpr (std::is_same_v<A, WebsocketStep>) run_websocket(s, a);
                else if constexpr (std::is_same_v<A, HoldIdleStep>) run_hold_idle(s, a);
                else if constexpr (std::is_same_v<A, TunnelStep>) run_tunnel_step(s, a);
                else if constexpr (std::is_same_v<A, ManyClientsStep>) run_many_clients_step(s, a);
            },
            s.action);
        check_declared_metrics(s, before);
        if (Clock::now() > deadline)
            throw StepFailure("took longer than its timeout of " + std::to_string(static_cast<double>(s.timeout.count()) / 1000.0) + " s");
        steps.push_back({{"path", s.json_path},
                         {"kind", s.kind},
                         {"name", s.name},
                         {"seconds", std::chrono::duration<double>(Clock::now() - started).count()}});
    }

    void save(const char* status) {
        doc["status"] = status;
        doc["metrics"] = metrics;
        doc["steps"] = steps;
        doc["loads"] = loads;
        doc["windows"] = windows;
        doc["findings"] = findings;
        if (!probe_facts.empty()) doc["probe_facts"] = probe_facts;
        if (!notes.empty()) doc["notes"] = notes;
        if (!proxy_defaults.empty()) doc["proxy_defaults"] = proxy_defaults;
        if (!proxy_set.empty()) doc["proxy_defaults_set"] = proxy_set;
        if (!tls_sessions.empty()) doc["tls_sessions"] = tls_sessions;
        env.dir.write_rep(env.planned.key, doc);
    }
};

double host_cpu_seconds() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    return secs(ru.ru_utime) + secs(ru.ru_stime);
}

json::object host_usage() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    return {{"peak_rss_kib", ru.ru_maxrss}, {"cpu_user_s", secs(ru.ru_utime)}, {"cpu_system_s", secs(ru.ru_stime)}};
}

}  // namespace

json::object run_repetition(RepEnvironment& env) {
    const PluginRef& plugin = env.scenario.plugins[env.planned.plugin];
    isolation::WorkerOptions options;
    options.plugin_file = env.plugin_file;
    options.plugin_id = plugin.label;
    options.host = env.host;
    isolation::PluginWorker worker(options);
    Rep rep{env, worker};
    rep.doc = env.preface;
    rep.doc["key"] = env.planned.key;
    rep.doc["plugin"] = plugin.label;
    rep.doc["plugin_id"] = plugin.id;
    rep.doc["rep"] = env.planned.rep;
    rep.doc["worker_log"] = worker.stderr_log().string();
    if (auto* f = env.preface.if_contains("findings")) rep.findings = f->as_array();
    if (auto it = env.host.boxes.find("measured"); it != env.host.boxes.end()) rep.go_processes.emplace(it->second);

    const char* status = "ok";
    try {
        auto created = worker.create(json::serialize(plugin.config), std::chrono::seconds(30));
        if (!created.ok()) throw StepFailure("create: " + created.error);
        json::array phases;
        for (const auto& phase : env.scenario.phases) {
            const auto phase_start = Clock::now();
            const auto host_before = host_cpu_seconds();
            for (const auto& step : phase.steps) {
                if (!step.plugin.empty() && step.plugin != plugin.label) continue;
                if (env.interrupted.load()) throw StepFailure("interrupted");
                if (env.on_step) env.on_step(phase.name + "/" + step.name);
                try {
                    rep.run_step(step);
                    rep.scan_box_processes();
                } catch (const StepFailure& e) {
                    rep.doc["failed_step"] = step.json_path + " (" + step.kind + " " + step.name + ")";
                    throw;
                }
                rep.save("running");
            }
            // The host's CPU in this phase: the load generator's threads, the
            // sampler, HTTP polls (the client side of the measurement).
            phases.push_back({{"name", phase.name},
                              {"seconds", std::chrono::duration<double>(Clock::now() - phase_start).count()},
                              {"host_cpu_s", host_cpu_seconds() - host_before}});
            rep.doc["phases"] = phases;
        }
        auto facts = worker.call("lifecycle.facts", {}, std::chrono::seconds(30));
        if (facts.ok()) {
            rep.doc["facts"] = facts.output;
            // a panel's secret path prefix (ext/lifecycle.h): for recordings only, never for a report
            if (auto* f = rep.doc["facts"].if_object()) f->erase("secret_path_prefix");
        }
    } catch (const StepFailure& e) {
        status = env.interrupted.load() ? "interrupted" : "failed";
        rep.doc["reason"] = e.what();
    }
    if (worker.alive()) {
        auto calls = worker.http_calls(std::chrono::seconds(10));
        if (calls.ok()) rep.doc["http_calls"] = calls.output;
        worker.call("lifecycle.stop", {}, std::chrono::seconds(30));
        worker.shutdown(std::chrono::seconds(10));
    }
    rep.doc["host"] = host_usage();
    rep.check_go_runtimes();
    rep.save(status);
    return rep.doc;
}

}  // namespace stand::scenario
