#include "timed_run.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace stand_sysprobe {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPollInterval = std::chrono::milliseconds(50);

double thread_user_cpu_s() {
    rusage u{};
    if (::getrusage(RUSAGE_THREAD, &u) != 0) return 0;
    return static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) / 1e6;
}

struct ThreadOutcome {
    std::uint64_t events = 0;
    Clock::time_point end{};
    double user_cpu_s = 0;
};

struct Shared {
    std::atomic<unsigned> ready{0};
    std::atomic<bool> go{false};
    std::atomic<bool> stop{false};
    std::atomic<unsigned> finished{0};
    std::mutex error_mutex;
    std::exception_ptr error;
};

void worker(Shared& shared, const EventFn& event, std::uint64_t budget, ThreadOutcome& out) {
    shared.ready.fetch_add(1);
    shared.ready.notify_all();
    shared.go.wait(false);
    const double cpu0 = thread_user_cpu_s();
    try {
        while (out.events < budget && !shared.stop.load(std::memory_order_relaxed)) {
            event();
            ++out.events;
        }
    } catch (...) {
        std::lock_guard lock(shared.error_mutex);
        if (!shared.error) shared.error = std::current_exception();
        shared.stop.store(true);
    }
    out.end = Clock::now();
    out.user_cpu_s = thread_user_cpu_s() - cpu0;
    shared.finished.fetch_add(1);
}

double fraction_done(Clock::time_point t0, Clock::time_point deadline) {
    const double total = std::chrono::duration<double>(deadline - t0).count();
    const double done = std::chrono::duration<double>(Clock::now() - t0).count();
    return total > 0 ? std::min(1.0, done / total) : 1.0;
}

}  // namespace

TimedRunResult run_timed(const TimedRunSpec& spec, const MakeEvent& make_event, const Control& control,
                         const char* progress_message) {
    if (spec.threads == 0) throw std::invalid_argument("a timed run needs at least one thread");
    std::vector<EventFn> events;
    events.reserve(spec.threads);
    for (unsigned i = 0; i < spec.threads; ++i) events.push_back(make_event(i));

    Shared shared;
    std::vector<ThreadOutcome> outcomes(spec.threads);
    std::vector<std::thread> threads;
    threads.reserve(spec.threads);
    try {
        for (unsigned i = 0; i < spec.threads; ++i)
            threads.emplace_back(worker, std::ref(shared), std::cref(events[i]), spec.events_per_thread,
                                 std::ref(outcomes[i]));
    } catch (...) {
        shared.stop = true;
        shared.go = true;
        shared.go.notify_all();
        for (auto& t : threads) t.join();
        throw;
    }
    for (unsigned n = shared.ready.load(); n < spec.threads; n = shared.ready.load()) shared.ready.wait(n);

    TimedRunResult result;
    const auto t0 = Clock::now();
    const auto deadline = t0 + spec.duration;
    shared.go = true;
    shared.go.notify_all();
    while (shared.finished.load() < spec.threads) {
        const auto now = Clock::now();
        // Once stopped, only the last events are still running: wait for them briefly.
        const auto wake = shared.stop.load() ? now + std::chrono::milliseconds(1)
                                             : std::min(now + kPollInterval, std::max(now, deadline));
        std::this_thread::sleep_until(wake);
        if (!shared.stop.load() && control.cancelled && control.cancelled()) {
            result.cancelled = true;
            shared.stop = true;
        }
        if (Clock::now() >= deadline) shared.stop = true;
        if (control.report) control.report(fraction_done(t0, deadline), progress_message);
    }
    for (auto& t : threads) t.join();
    if (shared.error) std::rethrow_exception(shared.error);

    Clock::time_point last = t0;
    for (const auto& o : outcomes) {
        result.events += o.events;
        result.user_cpu_s += o.user_cpu_s;
        last = std::max(last, o.end);
    }
    result.seconds = std::chrono::duration<double>(last - t0).count();
    return result;
}

}  // namespace stand_sysprobe
