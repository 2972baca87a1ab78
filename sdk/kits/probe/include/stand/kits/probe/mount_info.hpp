// probe kit: where a test directory lives, so a probe can refuse RAM-backed
// ones (tmpfs, ramfs) before any I/O and name the mount in its facts.
#pragma once

#include <cstdint>
#include <string>

namespace stand_probe_kit {

// A directory's mount (from /proc/self/mountinfo) and statfs.
struct MountInfo {
    std::string mount_point;  // "" when mountinfo could not be read
    std::string fs_type;      // "ext4", "tmpfs", ... (mountinfo), else from f_type
    std::string source;       // "/dev/vda", "tmpfs", ...
    std::uint64_t f_type = 0;
    std::uint64_t free_bytes = 0;
    bool ram_backed = false;  // tmpfs or ramfs
};

// Throws std::runtime_error when `dir` is not a directory statfs can see.
MountInfo mount_of(const std::string& dir);

}  // namespace stand_probe_kit
