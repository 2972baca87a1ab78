// The params every disk probe (disk, fio) takes for a CrystalDiskMark job,
// declared once: the same keys, bounds and defaults, so a scenario can swap
// one probe for the other. A probe says more about a key with
// spec.key("duration_s").describe(...). block_size and queue_depth default to
// the job's own.
#pragma once

#include <stand/cpp/config_spec.hpp>
#include <stand/cpp/error.hpp>

#include <cstdint>
#include <string>

#include <stand/kits/probe/cdm_jobs.hpp>

namespace stand_probe_kit {

inline void declare_disk_params(stand::cpp::ConfigSpec& s) {
    s.string("dir", "test directory; tmpfs and ramfs are refused")
        .pattern("^.+$", "a directory path, not empty")
        .by_default("/var/tmp");
    s.integer("size_mib", "test file size").range(1, 16777216).by_default(1024);
    s.integer("duration_s", "time-based run length").range(1, 86400).by_default(5);
    s.integer("block_size", "bytes, a multiple of 512; default the job's").range(512, 64 * kMiB);
    s.integer("queue_depth", "I/Os in flight per thread; default the job's").range(1, 4096);
    s.integer("jobs", "I/O threads").range(1, 256).by_default(1);
    s.choice("engine", {"io_uring", "libaio"}, "the I/O engine").by_default("io_uring");
}

// The shared params as read for `job`; the probe checks what its engine needs
// (check_direct_block_size(), the file at least one block).
struct DiskParams {
    std::string dir;
    std::int64_t size_mib = 0, duration_s = 0, block_size = 0, queue_depth = 0, jobs = 0;
    std::string engine;
};

inline DiskParams read_disk_params(stand::cpp::ConfigValues& p, const CdmJob& job) {
    DiskParams d;
    d.dir = p.string("dir");
    d.size_mib = p.integer("size_mib");
    d.duration_s = p.integer("duration_s");
    d.block_size = p.optional_integer("block_size").value_or(job.block_size);
    d.queue_depth = p.optional_integer("queue_depth").value_or(job.queue_depth);
    d.jobs = p.integer("jobs");
    d.engine = p.string("engine");
    return d;
}

// Error(STAND_E_INVALID_ARGUMENT) "<probe>: params.block_size: ..." unless
// the block size is a multiple of 512, as O_DIRECT needs.
inline void check_direct_block_size(const std::string& probe, const DiskParams& d) {
    if (d.block_size % 512 != 0)
        throw stand::cpp::Error(STAND_E_INVALID_ARGUMENT, probe + ": params.block_size: " +
                                                              std::to_string(d.block_size) +
                                                              " is not a multiple of 512 (O_DIRECT)");
}

}  // namespace stand_probe_kit
