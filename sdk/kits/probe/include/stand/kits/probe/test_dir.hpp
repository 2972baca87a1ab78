// The test directory of a disk probe, checked the same way by every one
// before any I/O: a directory in RAM (tmpfs, ramfs) is refused naming its
// mount, and one without room for the test file is refused naming both
// sizes. Errors start with the probe's id.
#pragma once

#include <cstdint>
#include <string>

#include <stand/kits/probe/mount_info.hpp>

namespace stand_probe_kit {

// `dir`'s mount. Error(STAND_E_INVALID_ARGUMENT) "<probe>: params.dir: ..."
// when it is not a directory, "<probe>: refusing test directory ..." when it
// is RAM-backed.
MountInfo test_dir_mount(const std::string& probe, const std::string& dir);

// Error(STAND_E_IO) unless `mount` (dir's) has `size_mib` MiB free.
void check_free_space(const std::string& probe, const std::string& dir, const MountInfo& mount,
                      std::uint64_t size_mib);

}  // namespace stand_probe_kit
