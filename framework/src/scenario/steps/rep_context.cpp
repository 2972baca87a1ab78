#include "scenario/steps/rep_context.hpp"
#include "rundir/run_files.hpp"

#include "detect/box_cpu.hpp"
#include "target/readiness_poll.hpp"

#include <stand/stand.h>

#include <algorithm>
#include <thread>

namespace stand::scenario {

namespace json = boost::json;

json::object RepRecord::to_json(const char* status) const {
    json::object out = doc;
    out[rundir::rep_key::kStatus] = status;
    out[rundir::rep_key::kMetrics] = metrics;
    out[rundir::rep_key::kSteps] = steps;
    out[rundir::rep_key::kLoads] = loads;
    out[rundir::rep_key::kWindows] = windows;
    out[rundir::rep_key::kFindings] = findings;
    if (!probe_facts.empty()) out[rundir::rep_key::kProbeFacts] = probe_facts;
    if (!notes.empty()) out[rundir::rep_key::kNotes] = notes;
    if (!proxy_defaults.empty()) out[rundir::rep_key::kProxyDefaults] = proxy_defaults;
    if (!proxy_set.empty()) out[rundir::rep_key::kProxyDefaultsSet] = proxy_set;
    if (!tls_sessions.empty()) out[rundir::rep_key::kTlsSessions] = tls_sessions;
    if (!capacity.empty()) out[rundir::rep_key::kCapacity] = capacity;
    return out;
}

std::string first_error(const std::vector<std::string>& errors) {
    return errors.empty() ? std::string() : "; first: " + errors.front();
}

RepContext::RepContext(RepEnvironment& e, PluginPort& p, std::function<void(const Step&)> nested)
    : env(e),
      port(p),
      // The host's own requests (readiness, backend stats) follow the scenario's allow_remote, as its loads do.
      http{host::HttpPolicy{e.scenario.allow_remote, {}, false}},
      run_nested_(std::move(nested)) {}

const PluginRef& RepContext::plugin() const { return env.scenario.plugins[env.planned.plugin]; }

std::string RepContext::scope(const Step& s) const {
    return plugin().label + " rep " + std::to_string(env.planned.rep) + ", step " + s.name;
}

json::value RepContext::must(PortReply reply) {
    if (!reply.ok())
        throw StepFailure(std::string(abi_name(reply.call)) + ": " +
                          (reply.error.empty() ? std::string(stand_result_name(reply.code)) : reply.error));
    return std::move(reply.output);
}

void RepContext::throw_if_interrupted() const {
    if (env.interrupted.load()) throw StepFailure("interrupted");
}

void RepContext::sleep_for(Seconds d) {
    auto until = RepClock::now() + std::chrono::duration_cast<RepClock::duration>(d);
    while (RepClock::now() < until) {
        throw_if_interrupted();
        std::this_thread::sleep_for(std::min<RepClock::duration>(until - RepClock::now(), std::chrono::milliseconds(50)));
    }
}

RepClock::time_point RepContext::window_start() {
    return env.sampler != nullptr ? env.sampler->window_start() : RepClock::now();
}

std::optional<sampler::WindowStats> RepContext::window(RepClock::time_point t0, RepClock::time_point t1,
                                                       const std::string& name) {
    if (env.sampler == nullptr) return std::nullopt;
    // The closing sample is taken after t1 was read: the window ends at it, or it would fall outside.
    const auto closing = env.sampler->sample_now().t;
    try {
        auto w = env.sampler->window(t0, std::max(t1, closing));
        record.windows[name] = w.to_json(env.sampler->epoch());
        return w;
    } catch (const sampler::WindowError& e) {
        record.finding(detect::Finding{"short-window", name, e.what()});
        return std::nullopt;
    }
}

json::object RepContext::readiness(std::chrono::milliseconds timeout) {
    auto r = must(port.readiness(timeout));
    if (!r.is_object() || !r.as_object().contains("url"))
        throw StepFailure("lifecycle.readiness: the plugin did not describe a request with a \"url\"");
    return r.as_object();
}

std::string RepContext::endpoint_base(const Step& s) {
    if (env.through_proxy) {  // only a proxy has an endpoint apart from its readiness request
        auto endpoint = port.endpoint(s.timeout);
        if (endpoint.ok()) {
            const auto* e = endpoint.output.if_object();
            const auto* scheme = e ? e->if_contains("scheme") : nullptr;
            const auto* host = e ? e->if_contains("host") : nullptr;
            const auto* p = e ? e->if_contains("port") : nullptr;
            if (!scheme || !scheme->is_string() || !host || !host->is_string() || !p || !p->is_number())
                throw StepFailure("proxy.endpoint answered " + boost::json::serialize(endpoint.output) +
                                  ", not {scheme, host, port}");
            return std::string(scheme->as_string()) + "://" + std::string(host->as_string()) + ":" +
                   std::to_string(p->to_number<std::int64_t>());
        }
    }
    std::string url(readiness(s.timeout).at("url").as_string());
    return url.substr(0, url.find('/', url.find("://") + 3));
}

Endpoint RepContext::endpoint(const Step& s) {
    const std::string base = endpoint_base(s);
    const auto scheme_end = base.find("://");
    Endpoint t;
    t.tls = base.starts_with("https://");
    std::string authority = scheme_end == std::string::npos ? base : base.substr(scheme_end + 3);
    // A URL without a port has its scheme's, as the load step reads it.
    if (authority.find(':', authority.rfind(']') == std::string::npos ? 0 : authority.rfind(']')) == std::string::npos)
        authority += t.tls ? ":443" : ":80";
    try {
        std::tie(t.host, t.port) = target::split_host_port(authority, "endpoint");
    } catch (const std::exception& e) {
        throw StepFailure(std::string("step ") + s.name + ": " + e.what());
    }
    return t;
}

target::BackendStats RepContext::backend_stats(const Step& s) {
    try {
        return env.backend->stats();
    } catch (const std::exception& e) {
        throw StepFailure("step " + s.name + ": " + e.what());
    }
}

std::vector<box::BoxProcess> RepContext::measured_processes() const {
    auto it = env.host.boxes.find("measured");
    return it == env.host.boxes.end() ? std::vector<box::BoxProcess>{} : box::box_processes(it->second);
}

// A core the panel restarted shows as a new PID under the same name.
void RepContext::record_process_changes(const Step& s, const std::vector<box::BoxProcess>& before) {
    if (env.host.boxes.find("measured") == env.host.boxes.end()) return;
    const auto after = measured_processes();
    const auto changes = box::compare_processes(before, after);
    record.loads[s.name].as_object()["box_processes"] = changes.to_json(before, after);
    put(s.name + ".processes_replaced", static_cast<double>(changes.replaced.size()));
    if (changes.replaced.empty()) return;
    std::string list;
    for (const auto& r : changes.replaced) list += (list.empty() ? "" : "; ") + r;
    record.finding(detect::Finding{
        "box-process-replaced", scope(s),
        "during the step the box's processes were replaced (name, PIDs before -> after): " + list});
}

void RepContext::check_aliasing(const Step& s, const detect::PeriodicProbe& probe,
                                const std::optional<sampler::WindowStats>& w) {
    if (!w || !w->throttled_periods) return;
    const auto box = detect::box_cpu_of(rundir::field(env.preface, rundir::rep_key::kBox));
    detect::StepThrottling t{box.period_us, w->periods.value_or(0), *w->throttled_periods, w->throttled_us.value_or(0)};
    if (auto f = detect::check_probe_aliasing(probe, t, scope(s))) record.finding(*f);
}

}  // namespace stand::scenario
