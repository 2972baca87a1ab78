// The params every disk probe (disk, fio) takes for a CrystalDiskMark job,
// declared once: the same keys, bounds and defaults, so a scenario can swap
// one probe for the other. A probe says more about a key with
// spec.key("duration_s").describe(...). block_size and queue_depth default to
// the job's own (read them with optional_integer()).
#pragma once

#include <stand/cpp/config_spec.hpp>

#include "cdm_jobs.hpp"

namespace stand_probe_kit {

inline void declare_disk_params(stand::cpp::ConfigSpec& s) {
    s.string("dir", "test directory; tmpfs and ramfs are refused").by_default("/var/tmp");
    s.integer("size_mib", "test file size").range(1, 16777216).by_default(1024);
    s.integer("duration_s", "time-based run length").range(1, 86400).by_default(5);
    s.integer("block_size", "bytes, a multiple of 512; default the job's").range(512, 64 * kMiB);
    s.integer("queue_depth", "I/Os in flight per thread; default the job's").range(1, 4096);
    s.integer("jobs", "I/O threads").range(1, 256).by_default(1);
    s.choice("engine", {"io_uring", "libaio"}, "the I/O engine").by_default("io_uring");
}

}  // namespace stand_probe_kit
