// The block device an io limit applies to. cgroup io throttling takes a
// whole disk ("254:0"), not a partition, so a path on /dev/vda1 resolves to
// /dev/vda's numbers.
#pragma once

#include <filesystem>
#include <string>

namespace stand::box {

struct BlockDevice {
    std::string numbers;  // "254:0"
    std::string name;     // "vda" (from /sys/dev/block/.../uevent DEVNAME), "" when unknown
};

// Throws BoxError naming the path: missing, or on a file system with no
// block device under it (tmpfs, overlay of tmpfs, NFS).
BlockDevice whole_disk_of(const std::filesystem::path& path,
                          const std::filesystem::path& sys_dev_block = "/sys/dev/block");

}  // namespace stand::box
