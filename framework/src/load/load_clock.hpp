// The load generator's clocks: steady nanoseconds for timing requests, a
// thread's own CPU time and the process's.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>

#include <sys/resource.h>
#include <time.h>

namespace stand::load {

inline std::int64_t now_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline std::chrono::steady_clock::time_point time_point_of(std::int64_t ns) noexcept {
    return std::chrono::steady_clock::time_point(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::nanoseconds(ns)));
}

// User + system CPU of the whole process, in seconds.
inline double process_cpu_seconds() noexcept {
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
           static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

inline std::int64_t thread_cpu_ns() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// How long this thread has been runnable but waiting for a CPU, in ns
// (/proc/thread-self/schedstat's second field; 0 where the kernel keeps none):
// a generator that waits for a CPU is as much at its limit as one that runs.
inline std::int64_t thread_run_delay_ns() noexcept {
    long long on_cpu = 0, waiting = 0;
    if (FILE* f = std::fopen("/proc/thread-self/schedstat", "re")) {
        if (std::fscanf(f, "%lld %lld", &on_cpu, &waiting) != 2) waiting = 0;
        std::fclose(f);
    }
    return waiting;
}

}  // namespace stand::load
