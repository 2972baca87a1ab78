#include "scenario/rep_runner.hpp"
#include "rundir/run_files.hpp"

#include "detect/go_runtime.hpp"
#include "isolation/plugin_worker.hpp"
#include "scenario/steps/worker_port.hpp"
#include "scenario/listener_note.hpp"
#include "scenario/rep_go_runtimes.hpp"
#include "scenario/step_metrics.hpp"
#include "scenario/steps/rep_context.hpp"
#include "scenario/steps/step_kind.hpp"
#include "text/secrets.hpp"

#include <optional>
#include <set>
#include <sys/resource.h>

namespace stand::scenario {
namespace {

namespace json = boost::json;

// A metric a step emits is one its kind declares (scenario/steps/): the
// tables, checks and docs are checked against the declarations.
void check_declared_metrics(const json::object& metrics, const Step& s, const std::set<std::string>& before) {
    const auto extra = undeclared_metrics(s, metrics, before);
    if (extra.empty()) return;
    throw StepFailure("internal error: step " + s.name + " emitted the metric " + extra.front() + ", which the " +
                      s.kind + " step kind does not declare (framework/src/scenario/steps/)");
}

}  // namespace

void run_step(RepContext& ctx, const Step& s) {
    const auto started = RepClock::now();
    const auto deadline = started + s.timeout;
    std::set<std::string> before;
    for (const auto& [key, value] : ctx.record.metrics) {
        (void)value;
        before.insert(std::string(key));
    }
    find_step_kind(s.kind)->run(ctx, s, deadline);  // the parser accepted only registered kinds
    check_declared_metrics(ctx.record.metrics, s, before);
    if (RepClock::now() > deadline)
        throw StepFailure("took longer than its timeout of " +
                          std::to_string(static_cast<double>(s.timeout.count()) / 1000.0) + " s");
    ctx.record.steps.push_back({{"path", s.json_path},
                                {"kind", s.kind},
                                {"name", s.name},
                                {"seconds", std::chrono::duration<double>(RepClock::now() - started).count()}});
}

namespace {

struct HostUsage {
    double cpu_user_s = 0, cpu_system_s = 0;
    long peak_rss_kib = 0;
};

HostUsage host_usage() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    return {secs(ru.ru_utime), secs(ru.ru_stime), ru.ru_maxrss};
}

double host_cpu_seconds() {
    const auto u = host_usage();
    return u.cpu_user_s + u.cpu_system_s;
}

void save(const RepContext& ctx, const char* status) {
    ctx.env.dir.write_rep(ctx.env.planned.key, ctx.record.to_json(status));
}

// Every phase's steps for this plugin, then its facts; the rep JSON is saved after each step.
void run_phases(RepContext& ctx, std::optional<detect::GoProcessScanner>& go_processes) {
    json::array phases;
    for (const auto& phase : ctx.env.scenario.phases) {
        const auto phase_start = RepClock::now();
        const auto host_before = host_cpu_seconds();
        for (const auto& step : phase.steps) {
            if (!step.plugin.empty() && step.plugin != ctx.plugin().label) continue;
            ctx.throw_if_interrupted();
            if (ctx.env.on_step) ctx.env.on_step(phase.name + "/" + step.name);
            if (ctx.env.figures) ctx.env.figures->step_started({phase.name, step.name, step.kind});
            try {
                run_step(ctx, step);
                if (go_processes) go_processes->scan();
            } catch (const StepFailure&) {
                ctx.record.doc[rundir::rep_key::kFailedStep] = step.json_path + " (" + step.kind + " " + step.name + ")";
                throw;
            }
            save(ctx, "running");
        }
        // The host's CPU in this phase: the load generator's threads, the
        // sampler, HTTP polls (the client side of the measurement).
        phases.push_back({{"name", phase.name},
                          {"seconds", std::chrono::duration<double>(RepClock::now() - phase_start).count()},
                          {"host_cpu_s", host_cpu_seconds() - host_before}});
        ctx.record.doc[rundir::rep_key::kPhases] = phases;
    }
    // A signal during the last step or the facts: the repetition is not whole, --resume redoes it.
    ctx.throw_if_interrupted();
    auto facts = ctx.port.facts(std::chrono::seconds(30));
    if (facts.ok()) {
        ctx.record.doc[rundir::rep_key::kFacts] = facts.output;
        // a panel's secret path prefix (ext/lifecycle.h): for recordings only, never for a report
        if (auto* f = ctx.record.doc[rundir::rep_key::kFacts].if_object()) {
            if (const auto* secret = f->if_contains("secret_path_prefix")) text::secrets().add_all(*secret);
            f->erase("secret_path_prefix");
        }
    }
    ctx.throw_if_interrupted();
}

// Scrapers that pressed the --metrics-listen listener since `before`, the
// repetition's start (scenario/listener_note.hpp).
void note_listener_load(RepContext& ctx, const live::ListenerLoad& before, RepClock::time_point started) {
    if (!ctx.env.figures) return;
    const auto during = ctx.env.figures->listener_load().since(before);
    const double seconds = std::chrono::duration<double>(RepClock::now() - started).count();
    const std::string scope = ctx.plugin().label + " rep " + std::to_string(ctx.env.planned.rep);
    if (auto note = listener_note(during, seconds, scope)) ctx.record.findings.push_back(note->to_json());
}

json::object preface_of(const RepEnvironment& env, const isolation::PluginWorker& worker) {
    const PluginRef& plugin = env.scenario.plugins[env.planned.plugin];
    json::object doc = env.preface;
    doc[rundir::rep_key::kKey] = env.planned.key;
    doc[rundir::rep_key::kPlugin] = plugin.label;
    doc[rundir::rep_key::kPluginId] = plugin.id;
    doc[rundir::rep_key::kRep] = env.planned.rep;
    doc[rundir::rep_key::kWorkerLog] = worker.stderr_log().string();
    return doc;
}

}  // namespace

json::object run_repetition(RepEnvironment& env) {
    const auto started = RepClock::now();
    const live::ListenerLoad listener_before = env.figures ? env.figures->listener_load() : live::ListenerLoad{};
    const PluginRef& plugin = env.scenario.plugins[env.planned.plugin];
    isolation::WorkerOptions options;
    options.plugin_file = env.plugin_file;
    options.plugin_id = plugin.label;
    options.host = env.host;
    options.interrupted = &env.interrupted;  // every call, teardown included, ends within 1 s of a signal
    isolation::PluginWorker worker(options);
    WorkerPort port(worker);
    RepContext ctx(env, port, [&ctx](const Step& s) { run_step(ctx, s); });
    ctx.record.doc = preface_of(env, worker);
    if (auto* f = rundir::field(env.preface, rundir::rep_key::kFindings)) ctx.record.findings = f->as_array();
    std::optional<detect::GoProcessScanner> go_processes;
    if (auto it = env.host.boxes.find("measured"); it != env.host.boxes.end()) go_processes.emplace(it->second);

    const char* status = "ok";
    try {
        auto created = worker.create(json::serialize(plugin.config), std::chrono::seconds(30));
        if (!created.ok()) throw StepFailure("create: " + created.error);
        run_phases(ctx, go_processes);
    } catch (const StepFailure& e) {
        status = env.interrupted.load() ? "interrupted" : "failed";
        ctx.record.doc[rundir::rep_key::kReason] = e.what();
    }
    if (worker.alive()) {
        auto calls = port.http_calls(std::chrono::seconds(10));
        if (calls.ok()) ctx.record.doc[rundir::rep_key::kHttpCalls] = calls.output;
        port.stop(std::chrono::seconds(30));
        worker.shutdown(std::chrono::seconds(10));
    }
    const auto usage = host_usage();
    ctx.record.doc[rundir::rep_key::kHost] = {{"peak_rss_kib", usage.peak_rss_kib}, {"cpu_user_s", usage.cpu_user_s},
                              {"cpu_system_s", usage.cpu_system_s}};
    if (go_processes) check_go_runtimes(ctx, *go_processes);
    note_listener_load(ctx, listener_before, started);
    save(ctx, status);
    return ctx.record.to_json(status);
}

}  // namespace stand::scenario
