// probe kit: the test directory's checks (test_dir.hpp).
#include <stand/kits/probe/test_dir.hpp>

#include <stand/cpp/error.hpp>

#include <exception>

#include <stand/kits/probe/cdm_jobs.hpp>

namespace stand_probe_kit {

using stand::cpp::Error;

MountInfo test_dir_mount(const std::string& probe, const std::string& dir) {
    MountInfo mount;
    try {
        mount = mount_of(dir);
    } catch (const std::exception& e) {
        throw Error(STAND_E_INVALID_ARGUMENT, probe + ": params.dir: " + e.what());
    }
    if (mount.ram_backed)
        throw Error(STAND_E_INVALID_ARGUMENT,
                    probe + ": refusing test directory " + dir + ": it is on " + mount.fs_type + " (mount " +
                        (mount.mount_point.empty() ? std::string("unknown") : mount.mount_point) +
                        "), which is RAM, not a disk; choose a directory on the disk under test");
    return mount;
}

void check_free_space(const std::string& probe, const std::string& dir, const MountInfo& mount,
                      std::uint64_t size_mib) {
    if (mount.free_bytes < size_mib * kMiB)
        throw Error(STAND_E_IO, probe + ": " + dir + " has " + std::to_string(mount.free_bytes / kMiB) +
                                    " MiB free, the test file needs " + std::to_string(size_mib) + " MiB");
}

}  // namespace stand_probe_kit
