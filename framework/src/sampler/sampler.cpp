#include "sampler/sampler.hpp"

#include <algorithm>
#include <ctime>
#include <pthread.h>
#include <stdexcept>

namespace stand::sampler {

Sampler::Sampler(std::unique_ptr<SampleSource> source, SamplerOptions options)
    : source_(std::move(source)), options_(options), epoch_(Clock::now()) {
    if (!source_) throw std::invalid_argument("sampler: no source");
    if (options_.interval <= std::chrono::nanoseconds(0)) throw std::invalid_argument("sampler: interval must be > 0");
    if (options_.host_pressure) host_ = make_host_pressure_source();
}

Sampler::~Sampler() { stop(); }

void Sampler::start() {
    std::lock_guard lock(mutex_);
    if (thread_.joinable()) return;
    stopping_ = false;
    thread_ = std::thread([this] { run(); });
}

void Sampler::stop() {
    {
        std::lock_guard lock(mutex_);
        if (!thread_.joinable()) return;
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
    thread_ = std::thread();
}

Sample Sampler::take(bool force_slow) {
    std::lock_guard lock(read_mutex_);
    Sample s;
    s.t = Clock::now();
    // A little early still counts: the schedule has jitter.
    const bool slow = force_slow || !last_slow_ || s.t - *last_slow_ >= options_.slow_interval - options_.interval / 2;
    if (slow) last_slow_ = s.t;
    source_->read(s, slow);
    if (host_) host_->read(s, slow);
    return s;
}

Sample Sampler::sample_now() {
    Sample s = take(true);
    std::lock_guard lock(mutex_);
    // Keep time order: the sampling thread may have appended a later one meanwhile.
    auto at = std::upper_bound(samples_.begin(), samples_.end(), s.t,
                               [](Clock::time_point t, const Sample& x) { return t < x.t; });
    samples_.insert(at, s);
    return s;
}

Clock::time_point Sampler::window_start() {
    const auto t0 = Clock::now();
    sample_now();
    return t0;
}

void Sampler::run() {
    const auto interval = options_.interval;
    auto next = Clock::now();
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        Sample s = take(false);
        lock.lock();
        auto at = std::upper_bound(samples_.begin(), samples_.end(), s.t,
                                   [](Clock::time_point t, const Sample& x) { return t < x.t; });
        samples_.insert(at, s);

        next += interval;
        const auto now = Clock::now();
        if (now - next >= interval) {  // whole ticks late: skip them, keep the phase
            const auto behind = (now - next) / interval;
            missed_ += static_cast<std::size_t>(behind);
            next += behind * interval;
        }
        wake_.wait_until(lock, next, [this] { return stopping_; });
    }
}

std::vector<Sample> Sampler::samples() const {
    std::lock_guard lock(mutex_);
    return samples_;
}

std::vector<Sample> Sampler::samples(Clock::time_point t0, Clock::time_point t1) const {
    std::lock_guard lock(mutex_);
    std::vector<Sample> out;
    for (const auto& s : samples_)
        if (s.t >= t0 && s.t <= t1) out.push_back(s);
    return out;
}

WindowStats Sampler::window(Clock::time_point t0, Clock::time_point t1) const {
    return compute_window(samples(t0, t1));
}

std::string Sampler::describe() const {
    return source_->describe() + (host_ ? " + " + host_->describe() : std::string());
}

std::optional<std::chrono::nanoseconds> Sampler::thread_cpu_time() const {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable()) return std::nullopt;
    clockid_t clock;
    // native_handle() is not const in libstdc++; the handle itself is not modified.
    auto handle = const_cast<std::thread&>(thread_).native_handle();
    if (::pthread_getcpuclockid(handle, &clock) != 0) return std::nullopt;
    timespec ts{};
    if (::clock_gettime(clock, &ts) != 0) return std::nullopt;
    return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

}  // namespace stand::sampler
