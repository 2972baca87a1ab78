// What every load thread type (Worker, Http3Worker) reports to the pass
// runner (pass_runner.hpp): its counts, its CPU time, when its window
// closed and when it finished, and progress counters and latencies for the
// lines and live figures while it runs.
#pragma once

#include "load/load_clock.hpp"
#include "load/load_stats.hpp"

#include <atomic>
#include <cstdint>
#include <cstddef>
#include <mutex>

namespace stand::load {

class WorkerProgress {
public:
    WorkerProgress(std::size_t links, std::size_t seconds_hint, std::uint64_t slow_us, bool open_model,
                   std::int64_t interval_ns)
        : stats_(links, seconds_hint, slow_us, open_model, interval_ns) {}

    ThreadStats& stats() noexcept { return stats_; }
    std::int64_t cpu_ns() const noexcept { return cpu_ns_; }
    std::int64_t wait_ns() const noexcept { return wait_ns_; }  // runnable, waiting for a CPU
    std::int64_t window_closed_ns() const noexcept { return window_closed_; }
    std::int64_t finished_ns() const noexcept { return finished_at_; }

    // Published about every 100 ms for progress lines (any thread may read).
    std::atomic<std::uint64_t> progress_sent{0};
    std::atomic<std::uint64_t> progress_completed{0};
    std::atomic<std::uint64_t> progress_errors{0};

    // The counters only: cheap enough for every response.
    void publish_counts() noexcept {
        progress_sent.store(stats_.sent, std::memory_order_relaxed);
        progress_completed.store(stats_.completed, std::memory_order_relaxed);
        progress_errors.store(stats_.error_total, std::memory_order_relaxed);
    }
    // The counters and the latencies since the last call: the latencies
    // cost a pass over the histogram's slots, so call it from a sweep (every
    // 100 ms or less) and at the end, not per response.
    void publish() noexcept {
        publish_counts();
        if (stats_.recent_latency.empty()) return;
        std::lock_guard lock(latency_mutex_);
        stats_.recent_latency.drain_into(published_latency_);
    }

    // Moves the latencies published since the last call into `into` (any thread).
    void take_latency(HdrHistogram& into) {
        std::lock_guard lock(latency_mutex_);
        published_latency_.drain_into(into);
    }

protected:
    // Around run() on the worker's own thread: its CPU time and its wait for a CPU.
    void start_clocks() noexcept {
        cpu0_ = thread_cpu_ns();
        wait0_ = thread_run_delay_ns();
    }
    void stop_clocks() noexcept {
        cpu_ns_ = thread_cpu_ns() - cpu0_;
        wait_ns_ = thread_run_delay_ns() - wait0_;
    }

    ThreadStats stats_;
    std::int64_t window_closed_ = 0;
    std::int64_t finished_at_ = 0;
    std::int64_t cpu_ns_ = 0;
    std::int64_t wait_ns_ = 0;

private:
    std::int64_t cpu0_ = 0, wait0_ = 0;
    std::mutex latency_mutex_;
    HdrHistogram published_latency_{kHighestUs, 2};  // under latency_mutex_
};

}  // namespace stand::load
