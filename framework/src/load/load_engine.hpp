// The load generator's entry point: the API the scenario engine calls and
// `stand load` wraps.
#pragma once

#include "load/load_result.hpp"
#include "load/load_spec.hpp"

#include <atomic>
#include <cstdint>
#include <functional>

namespace stand::load {

// Latency in µs of the responses of one progress interval, kept with two
// significant digits (within 1 %).
struct IntervalLatency {
    std::uint64_t count = 0;
    double sum_us = 0;
    std::uint64_t p50_us = 0, p95_us = 0, p99_us = 0, max_us = 0;
};

struct LoadProgress {
    double elapsed_s = 0;
    std::uint64_t sent = 0;
    std::uint64_t completed = 0;
    std::uint64_t errors = 0;
    IntervalLatency latency;  // the responses since the previous call
};

struct LoadHooks {
    // Called about once per second from the thread that called run_load.
    std::function<void(const LoadProgress&)> on_progress;
    // When it becomes true the window closes early (requests in flight are
    // still awaited) and the result says "interrupted".
    const std::atomic<bool>* stop = nullptr;
};

// Prepares (parses, resolves and checks every URL: only local targets unless
// spec.allow_remote), optionally runs the warm-up pass, then the load, and
// measures the generator's own CPU. Blocks for the duration plus the drain.
// Throws LoadSpecError for a spec that cannot run; transport failures during
// the run are counted in the result, never thrown.
LoadResult run_load(const LoadSpec& spec, const LoadHooks& hooks = {});

}  // namespace stand::load
