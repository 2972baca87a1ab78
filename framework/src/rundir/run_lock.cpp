#include "rundir/run_lock.hpp"

#include "text/user_error.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace stand::rundir {
namespace {

std::string holder_pid(int fd) {
    char text[32] = {};
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    std::string pid(text, n > 0 ? static_cast<std::size_t>(n) : 0);
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    return pid.empty() ? "unknown" : pid;
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
            throw text::UserError("the run directory " + root.string() + " is in use by stand pid " + holder_pid(fd) +
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
