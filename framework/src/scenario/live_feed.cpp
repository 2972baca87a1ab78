#include "scenario/live_feed.hpp"

#include <algorithm>
#include <chrono>

namespace stand::scenario {
namespace {

double seconds_of_us(double us) { return us / 1e6; }

}  // namespace

live::LoadFigures load_begins(const std::string& step, const load::LoadSpec& spec) {
    live::LoadFigures f;
    f.step = step;
    f.planned_s = std::chrono::duration<double>(spec.duration).count();
    if (spec.model == load::Model::open) f.offered_rate = spec.rate;
    return f;
}

void add_progress(live::LoadFigures& f, const load::LoadProgress& p, double rate) {
    f.elapsed_s = p.elapsed_s;
    f.achieved_rate = rate;
    f.sent = p.sent;
    f.completed = p.completed;
    f.errors = p.errors;
    const load::IntervalLatency& l = p.latency;
    f.recent.reset();
    if (l.count == 0) return;
    f.recent = live::LatencyQuantiles{seconds_of_us(static_cast<double>(l.p50_us)),
                                      seconds_of_us(static_cast<double>(l.p95_us)),
                                      seconds_of_us(static_cast<double>(l.p99_us)),
                                      seconds_of_us(static_cast<double>(l.max_us))};
    f.latency_count += l.count;
    f.latency_sum_s += seconds_of_us(l.sum_us);
    f.latency_max_s = std::max(f.latency_max_s, seconds_of_us(static_cast<double>(l.max_us)));
}

void set_result(live::LoadFigures& f, const load::LoadResult& r) {
    f.running = false;
    f.elapsed_s = r.elapsed_s;
    f.sent = r.sent;
    f.completed = r.completed;
    f.errors = r.errors;
    const auto all = r.latency.find("all");
    if (all == r.latency.end()) return;
    f.latency_count = all->second.count();
    f.latency_sum_s = seconds_of_us(all->second.mean() * static_cast<double>(all->second.count()));
    f.latency_max_s = seconds_of_us(static_cast<double>(all->second.max()));
}

std::function<live::BoxFigures()> box_source(const sampler::Sampler* sampler) {
    if (sampler == nullptr) return {};
    return [sampler] {
        live::BoxFigures box;
        // About the last second; two intervals of a slower sampler.
        const std::chrono::nanoseconds interval = sampler->interval();
        const auto span = std::max<std::chrono::nanoseconds>(std::chrono::seconds(1), 2 * interval) + interval / 2;
        const auto now = sampler::Clock::now();
        const auto recent = sampler->samples(now - span, now);
        if (recent.empty()) return box;
        const sampler::Sample& last = recent.back();
        box.memory_bytes = last.mem_current;
        const sampler::Sample& first = recent.front();
        const double dt = std::chrono::duration<double>(last.t - first.t).count();
        if (dt > 0 && first.cpu_usage_us && last.cpu_usage_us && *last.cpu_usage_us >= *first.cpu_usage_us)
            box.cpu_cores = static_cast<double>(*last.cpu_usage_us - *first.cpu_usage_us) / 1e6 / dt;
        return box;
    };
}

}  // namespace stand::scenario
