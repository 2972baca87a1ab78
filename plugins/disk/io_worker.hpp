// disk probe: one I/O thread's time-based loop over an IoEngine.
#pragma once

#include <atomic>
#include <cstdint>

#include "disk_engine.hpp"
#include "latency_histogram.hpp"

namespace stand_disk {

struct ThreadResult {
    std::uint64_t ios = 0;
    std::uint64_t bytes = 0;
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    double cpu_s = 0;  // user + system time of the thread
    bool fixed_buffers = false;
    LatencyHistogram latency;  // per I/O, submission to reaping, ns
};

// Opens spec.path with O_DIRECT and keeps spec.queue_depth I/Os in flight on
// its own engine until spec.duration_ns passed or `stop` is set, then drains.
// Thread `index` of spec.jobs streams through its own slice of the file when
// sequential; random offsets cover all of it. Throws std::runtime_error
// naming the file on I/O errors.
void run_io_thread(const EngineSpec& spec, unsigned index, const std::atomic<bool>& stop, ThreadResult& out);

}  // namespace stand_disk
