#include "box/block_device.hpp"

#include "box/cgroup_fs.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <sstream>

namespace stand::box {

namespace fs = std::filesystem;

namespace {

std::string uevent_name(const fs::path& dir) {
    std::istringstream in(read_text(dir / "uevent").value_or(""));
    for (std::string line; std::getline(in, line);)
        if (line.starts_with("DEVNAME=")) return line.substr(8);
    return "";
}

}  // namespace

BlockDevice whole_disk_of(const fs::path& path, const fs::path& sys_dev_block) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) throw BoxError("io limit: cannot stat " + path.string() + ": " + errno_text(errno));
    const std::string numbers = std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
    std::error_code ec;
    const fs::path dir = fs::canonical(sys_dev_block / numbers, ec);
    if (ec || major(st.st_dev) == 0)
        throw BoxError("io limit: " + path.string() + " is on device " + numbers +
                       ", which is not a block device (tmpfs, overlay or a network file system); "
                       "an io limit needs a directory on a disk");
    if (fs::exists(dir / "partition")) {
        const fs::path parent = dir.parent_path();
        auto dev = read_value(parent / "dev");
        if (!dev) throw BoxError("io limit: cannot read " + (parent / "dev").string() + " (the disk of partition " + numbers + ")");
        return {*dev, uevent_name(parent)};
    }
    return {numbers, uevent_name(dir)};
}

}  // namespace stand::box
