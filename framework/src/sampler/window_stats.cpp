#include "sampler/window_stats.hpp"

#include <algorithm>

namespace stand::sampler {
namespace {

using Field = std::optional<std::uint64_t> Sample::*;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

template <class Get>
std::optional<GaugeStats> gauge(const std::vector<Sample>& samples, Get get) {
    GaugeStats g;
    double sum = 0;
    for (const auto& s : samples) {
        std::optional<std::uint64_t> v = get(s);
        if (!v) continue;
        sum += static_cast<double>(*v);
        g.max = g.n == 0 ? *v : std::max(g.max, *v);
        g.last = *v;
        ++g.n;
    }
    if (g.n == 0) return std::nullopt;
    g.mean = sum / static_cast<double>(g.n);
    return g;
}

std::optional<GaugeStats> gauge(const std::vector<Sample>& samples, Field f) {
    return gauge(samples, [f](const Sample& s) { return s.*f; });
}

// First and last sample that have the counter; nullopt when it ever went
// backwards (the group was recreated) or fewer than two samples have it.
template <class Get>
std::optional<std::pair<const Sample*, const Sample*>> ends(const std::vector<Sample>& samples, Get get) {
    const Sample* a = nullptr;
    const Sample* b = nullptr;
    for (const auto& s : samples) {
        if (!get(s)) continue;
        if (b != nullptr && *get(s) < *get(*b)) return std::nullopt;
        if (a == nullptr) a = &s;
        b = &s;
    }
    if (a == nullptr || a == b) return std::nullopt;
    return std::pair{a, b};
}

std::optional<std::uint64_t> delta(const std::vector<Sample>& samples, Field f) {
    auto get = [f](const Sample& s) { return s.*f; };
    auto e = ends(samples, get);
    if (!e) return std::nullopt;
    return *get(*e->second) - *get(*e->first);
}

PressureStats pressure(const std::vector<Sample>& samples, Pressure Sample::*p) {
    PressureStats out;
    auto total = [p](const Sample& s) { return (s.*p).some_total_us; };
    if (auto e = ends(samples, total)) {
        out.stall_us = *total(*e->second) - *total(*e->first);
        double dt = seconds(e->second->t - e->first->t);
        if (dt > 0) out.stall_pct = static_cast<double>(*out.stall_us) / 1e6 / dt * 100.0;
    }
    for (const auto& s : samples)
        if (auto v = (s.*p).some_avg10) out.avg10_max = std::max(out.avg10_max.value_or(*v), *v);
    return out;
}

boost::json::value opt(const std::optional<std::uint64_t>& v) {
    return v ? boost::json::value(*v) : boost::json::value(nullptr);
}
boost::json::value opt(const std::optional<double>& v) {
    return v ? boost::json::value(*v) : boost::json::value(nullptr);
}
boost::json::value gauge_json(const std::optional<GaugeStats>& g) {
    if (!g) return nullptr;
    return boost::json::object{{"mean", g->mean}, {"max", g->max}, {"last", g->last}, {"n", g->n}};
}
boost::json::value pressure_json(const PressureStats& p) {
    return boost::json::object{{"stall_us", opt(p.stall_us)}, {"stall_pct", opt(p.stall_pct)},
                               {"avg10_max", opt(p.avg10_max)}};
}

}  // namespace

WindowStats compute_window(const std::vector<Sample>& samples) {
    if (samples.size() < 2)
        throw WindowError("window holds " + std::to_string(samples.size()) +
                          " sample(s); at least 2 are needed (make the window longer than the sampling interval)");
    WindowStats w;
    w.first = samples.front().t;
    w.last = samples.back().t;
    w.samples = samples.size();
    w.duration_s = seconds(w.last - w.first);

    w.mem_current = gauge(samples, &Sample::mem_current);
    w.mem_peak = gauge(samples, &Sample::mem_peak);
    w.anon = gauge(samples, &Sample::anon);
    w.file = gauge(samples, &Sample::file);
    w.inactive_file = gauge(samples, &Sample::inactive_file);
    w.shmem = gauge(samples, &Sample::shmem);
    w.kernel = gauge(samples, &Sample::kernel);
    w.procs = gauge(samples, &Sample::procs);
    w.tasks = gauge(samples, &Sample::tasks);
    w.working_set = gauge(samples, [](const Sample& s) -> std::optional<std::uint64_t> {
        if (!s.mem_current || !s.inactive_file) return std::nullopt;
        return *s.mem_current > *s.inactive_file ? *s.mem_current - *s.inactive_file : 0;
    });

    auto usage = [](const Sample& s) { return s.cpu_usage_us; };
    if (auto e = ends(samples, usage)) {
        double dt = seconds(e->second->t - e->first->t);
        if (dt > 0) w.cpu_pct = static_cast<double>(*usage(*e->second) - *usage(*e->first)) / 1e6 / dt * 100.0;
    }
    for (std::size_t i = 1; i < samples.size(); ++i) {
        const auto &a = samples[i - 1], &b = samples[i];
        double dt = seconds(b.t - a.t);
        if (a.cpu_usage_us && b.cpu_usage_us && *b.cpu_usage_us >= *a.cpu_usage_us && dt > 0)
            w.cpu_pct_series.push_back(static_cast<double>(*b.cpu_usage_us - *a.cpu_usage_us) / 1e6 / dt * 100.0);
    }

    w.periods = delta(samples, &Sample::nr_periods);
    w.throttled_periods = delta(samples, &Sample::nr_throttled);
    w.throttled_us = delta(samples, &Sample::throttled_us);
    w.events_max = delta(samples, &Sample::events_max);
    w.events_oom = delta(samples, &Sample::events_oom);
    w.events_oom_kill = delta(samples, &Sample::events_oom_kill);

    w.cpu_pressure = pressure(samples, &Sample::cpu_pressure);
    w.memory_pressure = pressure(samples, &Sample::memory_pressure);
    w.io_pressure = pressure(samples, &Sample::io_pressure);
    w.host_cpu_pressure = pressure(samples, &Sample::host_cpu_pressure);
    w.host_memory_pressure = pressure(samples, &Sample::host_memory_pressure);
    w.host_io_pressure = pressure(samples, &Sample::host_io_pressure);
    return w;
}

boost::json::object WindowStats::to_json(Clock::time_point epoch) const {
    boost::json::object o;
    o["t0_s"] = seconds(first - epoch);
    o["t1_s"] = seconds(last - epoch);
    o["duration_s"] = duration_s;
    o["samples"] = samples;
    o["memory"] = {{"current", gauge_json(mem_current)}, {"peak", gauge_json(mem_peak)},
                   {"anon", gauge_json(anon)},           {"file", gauge_json(file)},
                   {"inactive_file", gauge_json(inactive_file)}, {"shmem", gauge_json(shmem)},
                   {"kernel", gauge_json(kernel)},       {"working_set", gauge_json(working_set)}};
    o["procs"] = gauge_json(procs);
    o["tasks"] = gauge_json(tasks);
    boost::json::array series;
    for (double v : cpu_pct_series) series.emplace_back(v);
    o["cpu"] = {{"pct_of_one_cpu", opt(cpu_pct)}, {"pct_series", std::move(series)},
                {"periods", opt(periods)}, {"throttled_periods", opt(throttled_periods)},
                {"throttled_us", opt(throttled_us)}};
    o["memory_events"] = {{"max", opt(events_max)}, {"oom", opt(events_oom)}, {"oom_kill", opt(events_oom_kill)}};
    o["pressure"] = {{"cpu", pressure_json(cpu_pressure)},
                     {"memory", pressure_json(memory_pressure)},
                     {"io", pressure_json(io_pressure)},
                     {"host_cpu", pressure_json(host_cpu_pressure)},
                     {"host_memory", pressure_json(host_memory_pressure)},
                     {"host_io", pressure_json(host_io_pressure)}};
    return o;
}

}  // namespace stand::sampler
