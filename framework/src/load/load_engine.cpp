#include "load/load_engine.hpp"

#include "load/duration.hpp"
#include "load/load_clock.hpp"
#include "load/load_plan.hpp"
#include "load/load_stats.hpp"
#include "load/engine_choice.hpp"
#include "load/load_worker.hpp"
#include "load/uring_worker.hpp"
#include "load/pass_runner.hpp"
#include "load/http3_worker.hpp"
#include "load/thread_affinity.hpp"
#include "load/tls_client.hpp"
#include "box/cpu_list.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <latch>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <sys/resource.h>

namespace stand::load {
namespace {


void fill_shared(RunShared& shared, const LoadSpec& spec, const Plan& plan, TlsClient* tls, const LoadHooks& hooks) {
    shared.spec = &spec;
    shared.plan = &plan;
    shared.tls = tls;
    shared.open_model = spec.model == Model::open;
    shared.threads = spec.threads;
    shared.timeout_ns = spec.timeout.count();
    shared.late_ns = spec.late_threshold.count();
    shared.slow_us = ns_to_us(spec.slow_threshold.count());
    shared.max_requests = spec.max_requests;
    shared.stop = hooks.stop;
}

unsigned connections_of_thread(const LoadSpec& spec, unsigned i) {
    return spec.connections / spec.threads + (i < spec.connections % spec.threads ? 1 : 0);
}

template <class W>
PassTimes run_pass_on(const LoadSpec& spec, RunShared& shared, const LoadHooks& hooks, LoadResult& out) {
    std::vector<std::unique_ptr<W>> workers;
    for (unsigned i = 0; i < spec.threads; ++i)
        workers.push_back(std::make_unique<W>(shared, i, connections_of_thread(spec, i)));
    return run_workers(spec, workers, hooks, shared.open_model, out);
}

// Runs one pass (the warm-up or the load) on `engine` and merges its
// threads' counts into `out`.
PassTimes run_pass(const LoadSpec& spec, const Plan& plan, TlsClient* tls, Engine engine, const LoadHooks& hooks,
                   LoadResult& out) {
    RunShared shared;
    fill_shared(shared, spec, plan, tls, hooks);
    if (engine == Engine::uring) return run_pass_on<UringWorker>(spec, shared, hooks, out);
    return run_pass_on<Worker>(spec, shared, hooks, out);
}

std::string percent(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", v);
    return buf;
}

// What the run was asked to do, as the result reports it.
void describe_settings(const LoadSpec& spec, const Plan& plan, LoadResult& result) {
    result.model = spec.model;
    result.rate = spec.rate;
    result.threads = spec.threads;
    result.connections = spec.connections;
    result.duration_s = static_cast<double>(spec.duration.count()) / 1e9;
    result.keepalive = spec.keepalive;
    result.tls = plan.any_tls;
    result.links = spec.links.size();
    for (std::size_t k = 0; k < std::min(spec.links.size(), kListedLinks); ++k)
        result.urls.emplace_back(spec.links.url(k));
    result.xff_pattern = spec.identity.xff_pattern.value_or("");
    result.bind_prefix = spec.identity.bind_prefix.value_or("");
    result.late_threshold_ms = static_cast<double>(spec.late_threshold.count()) / 1e6;
    result.slow_threshold_ms = static_cast<double>(spec.slow_threshold.count()) / 1e6;
    result.timeout_s = static_cast<double>(spec.timeout.count()) / 1e9;
    if (spec.http3.enabled) {
        result.protocol = "h3";
        result.streams_per_connection = spec.http3.streams;
        result.congestion_control = spec.http3.congestion_control;
    }
}

}  // namespace

LoadResult run_load(const LoadSpec& spec, const LoadHooks& hooks) {
    const Plan plan = prepare_plan(spec);
    std::optional<TlsClient> tls;
    if (plan.any_tls && !spec.http3.enabled) tls.emplace(spec.tls);

    LoadResult result;
    const EngineChoice engine = choose_engine(spec, plan);
    result.engine = spec.http3.enabled ? "quic" : engine_name(engine.engine);
    result.engine_note = engine.note;
    if (spec.warmup_once) {
        LoadSpec warm = spec;
        warm.model = Model::closed;
        warm.rate = 0;
        warm.threads = 1;
        warm.connections = 1;
        warm.max_requests = spec.links.size();
        warm.duration = std::chrono::hours(24);
        warm.histogram_interval = std::chrono::nanoseconds(0);
        LoadResult w;
        const PassTimes t = run_pass(warm, plan, tls ? &*tls : nullptr, engine.engine, LoadHooks{{}, hooks.stop}, w);
        result.has_warmup = true;
        result.warmup.requests = w.sent;
        result.warmup.completed = w.completed;
        result.warmup.elapsed_s = t.elapsed_s;
        result.warmup.status_counts = w.status_counts;
        result.warmup.errors = w.error_counts;
    }

    describe_settings(spec, plan, result);

    if (!(hooks.stop != nullptr && hooks.stop->load())) {
        const PassTimes t = spec.http3.enabled ? run_http3_pass(spec, plan, hooks, result)
                                               : run_pass(spec, plan, tls ? &*tls : nullptr, engine.engine, hooks, result);
        result.window_s = t.window_s;
        result.elapsed_s = t.elapsed_s;
        CpuUsage& cpu = result.cpu;
        cpu.user_s = t.user_s;
        cpu.system_s = t.system_s;
        cpu.threads_s = t.thread_cpu_s;
        const double total = t.user_s + t.system_s;
        cpu.us_per_request = result.completed > 0 ? total * 1e6 / static_cast<double>(result.completed) : 0;
        cpu.cores_used = t.elapsed_s > 0 ? total / t.elapsed_s : 0;
        cpu.percent_of_threads = t.thread_wall_s > 0 ? t.thread_cpu_s / t.thread_wall_s * 100 : 0;
        cpu.percent_waiting = t.thread_wall_s > 0 ? t.thread_wait_s / t.thread_wall_s * 100 : 0;
    }
    result.interrupted = hooks.stop != nullptr && hooks.stop->load();

    if (result.cpu.percent_of_threads > 90) {
        result.generator_saturated = true;
        result.warnings.push_back("the generator used " + percent(result.cpu.percent_of_threads) + " of its " +
                                  std::to_string(spec.threads) +
                                  " thread(s)' CPU: it may be the bottleneck; add threads or cores");
    } else if (result.cpu.percent_of_threads + result.cpu.percent_waiting > 90) {
        result.generator_saturated = true;
        result.warnings.push_back("the generator's " + std::to_string(spec.threads) + " thread(s) ran " +
                                  percent(result.cpu.percent_of_threads) + " and waited for a CPU " +
                                  percent(result.cpu.percent_waiting) +
                                  " of the time: the machine is too busy for this load to measure the system");
    }
    if (result.unsent > 0)
        result.warnings.push_back(std::to_string(result.unsent) +
                                  " scheduled request(s) were never sent: all connections were busy (raise -c)");
    if (spec.model == Model::open && result.sent > 0 &&
        static_cast<double>(result.late) > 0.01 * static_cast<double>(result.sent))
        result.warnings.push_back(percent(100.0 * static_cast<double>(result.late) / static_cast<double>(result.sent)) +
                                  " of the requests were sent late (more than " + format_duration(spec.late_threshold) +
                                  " after their intended time); latency counts from the intended time");
    if (result.completed == 0 && result.sent > 0)
        result.warnings.push_back("no request got a response");
    return result;
}

}  // namespace stand::load
