// A time-based run of N worker threads, each repeating one "event" (a
// sysbench event, one EVP call over a buffer) until the duration is over, a
// per-thread event budget is spent, or the host cancels. The calling
// (control) thread polls cancellation and reports progress every 50 ms.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

namespace stand_sysprobe {

struct Control {
    std::function<bool()> cancelled;                          // [any thread]
    std::function<void(double fraction, const char*)> report; // [control thread]
};

struct TimedRunSpec {
    unsigned threads = 1;
    std::chrono::nanoseconds duration{std::chrono::seconds(10)};
    std::uint64_t events_per_thread = UINT64_MAX;  // UINT64_MAX: time only
};

struct TimedRunResult {
    std::uint64_t events = 0;  // over all threads
    double seconds = 0;        // wall clock, release of the threads to the last one's end
    double user_cpu_s = 0;     // user CPU time of the worker threads while measuring
    bool cancelled = false;
};

using EventFn = std::function<void()>;
// Builds thread i's event (its buffers, contexts) before the clock starts.
using MakeEvent = std::function<EventFn(unsigned thread_index)>;

// Rethrows the first exception an event threw, after every thread has ended.
TimedRunResult run_timed(const TimedRunSpec& spec, const MakeEvent& make_event, const Control& control,
                         const char* progress_message);

}  // namespace stand_sysprobe
