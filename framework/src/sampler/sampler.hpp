// Samples one source on its own thread at a fixed rate (1 s default, 100 ms
// and below work) on the monotonic clock. The schedule is drift-corrected
// (next += interval): a slow read delays one sample, not all later ones;
// ticks that could not be taken at all are skipped and counted in missed().
//
//   Sampler s(make_cgroup_source(box.paths()), {.interval = 100ms});
//   s.start();
//   auto t0 = s.window_start(); ...load...; s.sample_now(); auto t1 = Clock::now();
//   auto w = s.window(t0, t1);   // throws WindowError with < 2 samples
//   s.stop();
//   write_samples_csv(file, s.samples(), s.epoch());
#pragma once

#include "sampler/sample.hpp"
#include "sampler/sample_source.hpp"
#include "sampler/window_stats.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace stand::sampler {

struct SamplerOptions {
    std::chrono::nanoseconds interval = std::chrono::seconds(1);
    bool host_pressure = true;  // add /proc/pressure/* (a slow field)
    // The slow fields (procs, host pressure: sample.hpp) at most this often.
    std::chrono::nanoseconds slow_interval = std::chrono::seconds(1);
};

class Sampler {
public:
    explicit Sampler(std::unique_ptr<SampleSource> source, SamplerOptions options = {});
    ~Sampler();  // stop()s
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;

    // Takes the first sample right away, then one per interval. Idempotent.
    void start();
    void stop();
    // One extra sample now, from the caller's thread (phase boundaries).
    Sample sample_now();
    // The start of a window: now, with a sample of every field (the slow
    // ones too) taken at it. Without it a window's first reading of a slow
    // counter (an OOM kill) comes up to slow_interval after its start, and
    // an event in between is not in the window's delta; end the window with
    // sample_now() for the same reason.
    Clock::time_point window_start();

    std::vector<Sample> samples() const;
    // Samples with t0 <= t <= t1.
    std::vector<Sample> samples(Clock::time_point t0, Clock::time_point t1) const;
    WindowStats window(Clock::time_point t0, Clock::time_point t1) const;

    Clock::time_point epoch() const noexcept { return epoch_; }  // construction time
    std::chrono::nanoseconds interval() const noexcept { return options_.interval; }
    std::size_t missed() const noexcept { return missed_.load(); }
    std::string describe() const;
    // CPU time the sampling thread has used (CLOCK_THREAD_CPUTIME_ID of that
    // thread); nullopt when it is not running.
    std::optional<std::chrono::nanoseconds> thread_cpu_time() const;

private:
    void run();
    Sample take(bool force_slow);

    std::unique_ptr<SampleSource> source_;
    std::unique_ptr<SampleSource> host_;
    SamplerOptions options_;
    Clock::time_point epoch_;

    std::mutex read_mutex_;  // the sources keep buffers: one reader at a time
    std::optional<Clock::time_point> last_slow_;  // under read_mutex_
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::vector<Sample> samples_;
    std::atomic<std::size_t> missed_{0};
    std::thread thread_;
};

}  // namespace stand::sampler
