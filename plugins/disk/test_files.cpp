// disk probe: the instance's shared test files (see test_files.hpp).
#include "test_files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <stdexcept>

#include "disk_engine.hpp"
#include "io_support.hpp"

namespace stand_disk {

std::string TestFiles::path_for(const std::string& dir, std::uint64_t size_mib) {
    std::string d = dir;
    while (d.size() > 1 && d.ends_with('/')) d.pop_back();
    return d + (d == "/" ? "" : "/") + "stand-disk-" + std::to_string(size_mib) + "m.dat";
}

std::optional<TestFiles::Use> TestFiles::acquire(const std::string& dir, std::uint64_t size_mib,
                                                 const std::function<bool()>& cancelled,
                                                 const std::function<void(double)>& progress) {
    Use use;
    use.path = path_for(dir, size_mib);
    if (auto it = files_.find(use.path); it != files_.end()) {
        ++it->second.users;
        use.reused = true;
        return use;
    }
    Entry entry;
    entry.lock_fd = ::open(use.path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    if (entry.lock_fd < 0) fail_errno("open(" + use.path + ")", errno);
    if (::flock(entry.lock_fd, LOCK_EX | LOCK_NB) != 0) {
        const int e = errno;
        ::close(entry.lock_fd);  // not ours: left as it is
        if (e == EWOULDBLOCK) throw std::runtime_error(use.path + " is in use by another disk probe (flock held)");
        fail_errno("flock(" + use.path + ")", e);
    }
    const auto t0 = std::chrono::steady_clock::now();
    bool written = false;
    try {
        written = fill_file(use.path, size_mib << 20, cancelled, progress);
    } catch (...) {
        remove(use.path, entry);
        throw;
    }
    if (!written) {
        remove(use.path, entry);
        return std::nullopt;
    }
    use.write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    entry.users = 1;
    files_.emplace(use.path, entry);
    return use;
}

bool TestFiles::release(const std::string& path) {
    auto it = files_.find(path);
    if (it == files_.end() || --it->second.users > 0) return true;
    Entry entry = it->second;
    files_.erase(it);
    return remove(path, entry);
}

bool TestFiles::remove(const std::string& path, Entry& entry) {
    // Unlinked while still locked, so no other probe can take the name in between.
    const bool ok = ::unlink(path.c_str()) == 0 || errno == ENOENT;
    const int e = errno;
    ::close(entry.lock_fd);
    entry.lock_fd = -1;
    errno = e;
    return ok;
}

TestFiles::~TestFiles() {
    for (auto& [path, entry] : files_) remove(path, entry);
}

}  // namespace stand_disk
