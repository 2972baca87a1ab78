#include "rundir/run_lock.hpp"

#include "text/user_error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace stand::rundir {
namespace {

std::string written_pid(int fd) {
    char text[32] = {};
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    std::string pid(text, n > 0 ? static_cast<std::size_t>(n) : 0);
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    return pid;
}

// Who holds the flock on the file open at `fd`: /proc/locks names the
// holder's pid even before it wrote it into the file (or if it never does).
std::string holder(int fd) {
    const std::string written = written_pid(fd);
    struct stat st {};
    if (::fstat(fd, &st) == 0) {
        char id[64];
        std::snprintf(id, sizeof id, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                      static_cast<unsigned long long>(st.st_ino));
        std::ifstream locks("/proc/locks");
        std::string line;
        while (std::getline(locks, line)) {
            std::istringstream in(line);
            std::string number, type, mode, access, pid, file;
            in >> number >> type >> mode >> access >> pid >> file;
            if (type == "FLOCK" && file == id) return (pid == written ? "stand pid " : "pid ") + pid;
        }
    }
    return written.empty() ? std::string("another process") : "stand pid " + written;
}

// What a stand killed between taking the lock and writing run.json leaves:
// the lock file and a half-written run.json.tmpPID. No experiment.
bool left_by_a_run_that_never_began(const std::filesystem::path& root) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
        const std::string name = entry.path().filename().string();
        const auto tmp = name.rfind(".tmp");
        const bool temporary = tmp != std::string::npos && tmp + 4 < name.size() &&
                               name.find_first_not_of("0123456789", tmp + 4) == std::string::npos;
        if (name != "lock" && !temporary) return false;
    }
    return !ec;
}

void remove_temporary_files(const std::filesystem::path& root) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(root, ec))
        if (entry.path().filename() != "lock") std::filesystem::remove(entry.path(), ec);
}

}  // namespace

RunLock RunLock::taken(const std::filesystem::path& root) {
    const auto file = root / "lock";
    const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) throw text::UserError("cannot use the run directory " + root.string() + ": " + file.string() + ": " +
                                      std::strerror(errno));
    posix::UniqueFd owned(fd);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            throw text::UserError("the run directory " + root.string() + " is in use by " + holder(fd) +
                                  " (one run, resume or report at a time); wait for it or stop it");
        throw text::UserError("cannot lock " + file.string() + ": " + std::strerror(errno));
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
        throw text::UserError("cannot write " + file.string() + ": " + std::strerror(errno));
    return RunLock(std::move(owned));
}

RunLock RunLock::for_new_run(const std::filesystem::path& root) {
    std::error_code ec;
    const auto status = std::filesystem::status(root, ec);
    if (std::filesystem::exists(status)) {
        if (!std::filesystem::is_directory(status))
            throw text::UserError("--run-dir " + root.string() + ": not a directory");
        if (!std::filesystem::is_empty(root, ec) && !ec && left_by_a_run_that_never_began(root)) {
            RunLock lock = taken(root);
            remove_temporary_files(root);
            return lock;
        }
        if (!std::filesystem::is_empty(root, ec) || ec)
            throw text::UserError("--run-dir " + root.string() +
                                  ": not empty (a run directory holds one experiment); name a new directory, or "
                                  "finish that run with --resume " + root.string());
    }
    std::filesystem::create_directories(root, ec);
    if (ec) throw text::UserError("--run-dir " + root.string() + ": cannot create it: " + ec.message());
    return taken(root);
}

RunLock RunLock::for_existing_run(const std::filesystem::path& root, const char* must_hold) {
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec))
        throw text::UserError(root.string() + ": not a run directory (no such directory)");
    if (!std::filesystem::is_regular_file(root / must_hold, ec))
        throw text::UserError(root.string() + ": no " + must_hold + " (not a stand run directory)");
    return taken(root);
}

}  // namespace stand::rundir
