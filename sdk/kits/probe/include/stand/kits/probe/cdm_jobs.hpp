// The CrystalDiskMark profiles every disk probe offers (the disk probe, the
// fio probe): the same job ids, so a scenario can swap one for the other and
// every number can be checked side by side.
#pragma once

#include <cstdint>
#include <string_view>

namespace stand_probe_kit {

struct CdmJob {
    const char* id;     // "rnd4k-q32t1-read"
    const char* label;  // "RND4K Q32T1 read"
    bool random;
    bool write;
    std::uint32_t block_size;
    std::uint32_t queue_depth;
};

inline constexpr std::uint32_t kMiB = 1u << 20;
inline constexpr CdmJob kCdmJobs[] = {
    {"seq1m-q8t1-read", "SEQ1M Q8T1 read", false, false, kMiB, 8},
    {"seq1m-q8t1-write", "SEQ1M Q8T1 write", false, true, kMiB, 8},
    {"seq1m-q1t1-read", "SEQ1M Q1T1 read", false, false, kMiB, 1},
    {"seq1m-q1t1-write", "SEQ1M Q1T1 write", false, true, kMiB, 1},
    {"rnd4k-q32t1-read", "RND4K Q32T1 read", true, false, 4096, 32},
    {"rnd4k-q32t1-write", "RND4K Q32T1 write", true, true, 4096, 32},
    {"rnd4k-q1t1-read", "RND4K Q1T1 read", true, false, 4096, 1},
    {"rnd4k-q1t1-write", "RND4K Q1T1 write", true, true, 4096, 1},
};

// nullptr when `id` is not one of the jobs.
inline const CdmJob* find_cdm_job(std::string_view id) {
    for (const auto& j : kCdmJobs)
        if (id == j.id) return &j;
    return nullptr;
}

}  // namespace stand_probe_kit
