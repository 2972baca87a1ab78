// Runs the load threads of one pass for any worker type (HTTP/1.1 Worker,
// Http3Worker): pins them, starts them together, prints progress about once
// a second, joins them, and merges their counts. A worker offers
// run(start_ns, end_ns), stats(), cpu_ns(), window_closed_ns(),
// finished_ns() and the progress_* atomics.
#pragma once

#include "box/cpu_list.hpp"
#include "load/load_clock.hpp"
#include "load/load_engine.hpp"
#include "load/load_stats.hpp"
#include "load/thread_affinity.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <latch>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <sys/resource.h>

namespace stand::load {

struct PassTimes {
    double window_s = 0;
    double elapsed_s = 0;
    double thread_cpu_s = 0;
    double thread_wall_s = 0;  // sum over threads of their running time
    double thread_wait_s = 0;  // sum over threads of their time runnable but without a CPU
    double user_s = 0;
    double system_s = 0;
};

inline double seconds_of(const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

// The summary of one interval's latencies; empties `interval` for the next.
inline IntervalLatency interval_latency(HdrHistogram& interval) {
    IntervalLatency l;
    l.count = interval.count();
    if (l.count == 0) return l;
    l.sum_us = interval.mean() * static_cast<double>(l.count);
    l.p50_us = interval.value_at_percentile(50);
    l.p95_us = interval.value_at_percentile(95);
    l.p99_us = interval.value_at_percentile(99);
    l.max_us = interval.max();
    interval.reset();
    return l;
}

template <class W>
PassTimes run_workers(const LoadSpec& spec, std::vector<std::unique_ptr<W>>& workers, const LoadHooks& hooks,
                      bool open_model, LoadResult& out) {
    const auto threads = static_cast<unsigned>(workers.size());
    std::latch ready(threads);
    std::latch go(1);
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::mutex mutex;
    std::condition_variable cv;
    unsigned done = 0;

    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    std::vector<std::thread> pool;
    std::atomic<int> affinity_error{0};
    for (unsigned i = 0; i < threads; ++i)
        pool.emplace_back([&, i] {
            if (int e = pin_this_thread(spec.cpus); e != 0) affinity_error = e;
            ready.count_down();
            go.wait();
            workers[i]->run(start, end);
            {
                std::lock_guard lock(mutex);
                ++done;
            }
            cv.notify_one();
        });
    ready.wait();
    start = now_ns();
    out.window_start_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count();
    end = affinity_error ? start : start + spec.duration.count();  // a failed pin sends nothing
    go.count_down();

    {
        HdrHistogram interval{kHighestUs, 2};  // the latencies of one progress interval
        std::unique_lock lock(mutex);
        auto next = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        while (done < threads) {
            if (cv.wait_until(lock, next) == std::cv_status::timeout && hooks.on_progress) {
                LoadProgress p;
                p.elapsed_s = static_cast<double>(now_ns() - start) / 1e9;
                for (const auto& w : workers) {
                    p.sent += w->progress_sent.load(std::memory_order_relaxed);
                    p.completed += w->progress_completed.load(std::memory_order_relaxed);
                    p.errors += w->progress_errors.load(std::memory_order_relaxed);
                    w->take_latency(interval);
                }
                p.latency = interval_latency(interval);
                lock.unlock();
                hooks.on_progress(p);
                lock.lock();
            }
            if (std::chrono::steady_clock::now() >= next) next += std::chrono::seconds(1);
        }
    }
    for (auto& t : pool) t.join();
    if (int e = affinity_error.load(); e != 0)
        throw LoadSpecError("cannot run the load threads on CPUs " + box::format_cpu_list(spec.cpus) + ": " +
                            std::strerror(e));
    rusage after{};
    getrusage(RUSAGE_SELF, &after);

    PassTimes times;
    times.user_s = seconds_of(after.ru_utime) - seconds_of(before.ru_utime);
    times.system_s = seconds_of(after.ru_stime) - seconds_of(before.ru_stime);
    for (const auto& w : workers) {
        times.window_s = std::max(times.window_s, static_cast<double>(w->window_closed_ns() - start) / 1e9);
        times.elapsed_s = std::max(times.elapsed_s, static_cast<double>(w->finished_ns() - start) / 1e9);
        times.thread_cpu_s += static_cast<double>(w->cpu_ns()) / 1e9;
        times.thread_wait_s += static_cast<double>(w->wait_ns()) / 1e9;
        times.thread_wall_s += static_cast<double>(w->finished_ns() - start) / 1e9;
        merge_stats(out, w->stats(), open_model);
    }
    finish_result(out);
    return times;
}

}  // namespace stand::load
