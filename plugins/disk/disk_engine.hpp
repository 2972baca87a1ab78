// disk probe: the test directory check, the test file and a job's run
// (O_DIRECT, time-based, io_uring or libaio). No host types here: the plugin
// class adapts it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "io_engine.hpp"
#include "latency_histogram.hpp"
#include <stand/kits/probe/mount_info.hpp>

namespace stand_disk {

// The test directory check lives in plugins/probe-kit (shared with the fio probe).
using stand_probe_kit::MountInfo;
using stand_probe_kit::mount_of;

// One job of the engine.
struct EngineSpec {
    std::string path;
    std::uint64_t file_size = 0;
    std::uint32_t block_size = 4096;
    std::uint32_t queue_depth = 1;
    std::uint32_t jobs = 1;
    bool random = false;
    bool write = false;
    bool direct = true;  // O_DIRECT; false reads and writes through the page cache (a cache fixture)
    EngineKind engine = EngineKind::io_uring;
    std::uint64_t duration_ns = 5'000'000'000ull;
};

struct EngineResult {
    std::uint64_t ios = 0;
    std::uint64_t bytes = 0;
    double seconds = 0;   // first worker's start to last worker's end
    double cpu_s = 0;     // user + system time of the I/O threads
    bool fixed_buffers = false;
    LatencyHistogram latency;  // per I/O, submission to completion, ns
};

// Creates `path` (O_DIRECT), allocates `size` bytes and writes all of them
// once with incompressible data, then fdatasync(). `cancelled` is polled
// between 1 MiB writes; `progress` gets the fraction done. Throws
// std::runtime_error with the failing call and errno on errors; returns false
// when cancelled.
bool fill_file(const std::string& path, std::uint64_t size, const std::function<bool()>& cancelled,
               const std::function<void(double)>& progress);

// Throws std::runtime_error unless `path` is a regular file of at least
// `size` bytes with no hole in them (SEEK_HOLE), so reads hit written blocks.
void check_fully_written(const std::string& path, std::uint64_t size);

// Runs the job: spec.jobs threads, each with its own file descriptor and
// engine queue of spec.queue_depth entries, until spec.duration_ns passed. The
// calling thread polls `cancelled` and reports `progress` every 50 ms.
// Throws std::runtime_error on I/O errors; result.ios == 0 and
// `was_cancelled` set when cancelled.
EngineResult run_engine(const EngineSpec& spec, const std::function<bool()>& cancelled,
                        const std::function<void(double)>& progress, bool& was_cancelled);

}  // namespace stand_disk
