#include <stand/kits/panel/user_folders.hpp>

#include <stand/cpp/error.hpp>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

namespace stand_panel_kit {

namespace fs = std::filesystem;
using stand::cpp::Error;

std::optional<UserIds> find_user(const std::string& name) {
    std::vector<char> buf(16384);
    passwd pw{};
    passwd* found = nullptr;
    if (::getpwnam_r(name.c_str(), &pw, buf.data(), buf.size(), &found) != 0 || found == nullptr) return std::nullopt;
    return UserIds{pw.pw_uid, pw.pw_gid};
}

namespace {

bool searchable_by(const struct stat& st, const UserIds& who) {
    if (who.uid == 0) return true;
    if (st.st_uid == who.uid) return (st.st_mode & S_IXUSR) != 0;
    if (st.st_gid == who.gid) return (st.st_mode & S_IXGRP) != 0;
    return (st.st_mode & S_IXOTH) != 0;
}

std::string octal(mode_t mode) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
    return buf;
}

void open_for_others(const fs::path& dir, const std::string& what) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0)
        throw Error(STAND_E_IO, what + ": cannot read " + dir.string() + ": " + std::strerror(errno));
    if ((st.st_mode & S_IXOTH) != 0) return;
    if (::chmod(dir.c_str(), (st.st_mode & 07777) | S_IXOTH) != 0)
        throw Error(STAND_E_IO, what + ": cannot make " + dir.string() + " searchable: " + std::strerror(errno));
}

}  // namespace

void give_folder(const fs::path& folder, const UserIds& who, const fs::path& stand_root, bool empty_it,
                 const std::string& what) {
    std::error_code ec;
    if (empty_it) fs::remove_all(folder, ec);
    fs::create_directories(folder, ec);
    if (ec) throw Error(STAND_E_IO, what + ": cannot create " + folder.string() + ": " + ec.message());
    if (::chown(folder.c_str(), who.uid, who.gid) != 0)
        throw Error(STAND_E_IO, what + ": cannot give " + folder.string() + " to its user: " + std::strerror(errno) +
                                    (::geteuid() != 0 ? " (stand is not root)" : ""));
    const fs::path root = fs::absolute(stand_root).lexically_normal();
    bool inside = true;  // between folder and stand_root: stand's own
    for (fs::path dir = fs::absolute(folder).lexically_normal().parent_path(); !dir.empty(); dir = dir.parent_path()) {
        if (inside) {
            open_for_others(dir, what);
            if (dir == root) inside = false;
        } else {
            struct stat st {};
            if (::stat(dir.c_str(), &st) == 0 && !searchable_by(st, who))
                throw Error(STAND_E_IO, what + ": its user cannot reach " + folder.string() + ": " + dir.string() +
                                            " (mode " + octal(st.st_mode) + ") is not searchable by it; use a run "
                                            "directory under a folder others may enter (--run-dir, e.g. in /var/tmp)");
        }
        if (dir == dir.root_path()) break;
    }
}

}  // namespace stand_panel_kit
