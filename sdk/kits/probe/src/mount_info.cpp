// probe kit: mount_of(), moved here unchanged from plugins/disk/disk_engine.cpp.
#include <stand/kits/probe/mount_info.hpp>

#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace stand_probe_kit {
namespace {

[[noreturn]] void fail_errno(const std::string& what, int err) {
    throw std::runtime_error(what + ": " + std::strerror(err));
}

std::string fs_name(std::uint64_t magic) {
    switch (magic) {
    case EXT4_SUPER_MAGIC: return "ext2/3/4";
    case XFS_SUPER_MAGIC: return "xfs";
    case BTRFS_SUPER_MAGIC: return "btrfs";
    case TMPFS_MAGIC: return "tmpfs";
    case RAMFS_MAGIC: return "ramfs";
    case OVERLAYFS_SUPER_MAGIC: return "overlay";
    case NFS_SUPER_MAGIC: return "nfs";
    case F2FS_SUPER_MAGIC: return "f2fs";
    default: {
        std::ostringstream s;
        s << "0x" << std::hex << magic;
        return s.str();
    }
    }
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 3 < s.size()) {
            int v = (s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0');
            out.push_back(static_cast<char>(v));
            i += 3;
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

bool under(const std::string& path, const std::string& mount) {
    if (mount == "/") return true;
    return path.compare(0, mount.size(), mount) == 0 && (path.size() == mount.size() || path[mount.size()] == '/');
}

}  // namespace

MountInfo mount_of(const std::string& dir) {
    MountInfo info;
    struct statfs sf{};
    if (::statfs(dir.c_str(), &sf) != 0) fail_errno("statfs(" + dir + ")", errno);
    struct stat st{};
    if (::stat(dir.c_str(), &st) != 0) fail_errno("stat(" + dir + ")", errno);
    if (!S_ISDIR(st.st_mode)) throw std::runtime_error(dir + " is not a directory");
    info.f_type = static_cast<std::uint64_t>(sf.f_type);
    info.free_bytes = static_cast<std::uint64_t>(sf.f_bavail) * static_cast<std::uint64_t>(sf.f_bsize);
    info.ram_backed = info.f_type == TMPFS_MAGIC || info.f_type == RAMFS_MAGIC;
    info.fs_type = fs_name(info.f_type);

    char* real = ::realpath(dir.c_str(), nullptr);
    std::string path = real ? real : dir;
    std::free(real);
    // The longest mount point above `path` whose device is the directory's.
    std::ifstream in("/proc/self/mountinfo");
    std::string line;
    std::size_t best = 0;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string id, parent, devno, root, mp;
        fields >> id >> parent >> devno >> root >> mp;
        std::string tok;
        while (fields >> tok && tok != "-") {
        }
        std::string type, source;
        fields >> type >> source;
        mp = unescape(mp);
        unsigned maj = 0, min = 0;
        if (std::sscanf(devno.c_str(), "%u:%u", &maj, &min) != 2) continue;
        if (makedev(maj, min) != st.st_dev) continue;
        if (!under(path, mp) || mp.size() < best) continue;
        best = mp.size();
        info.mount_point = mp;
        info.fs_type = type;
        info.source = source;
    }
    return info;
}

}  // namespace stand_probe_kit
