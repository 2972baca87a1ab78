// disk probe: the test files of one plugin instance. There is one file per
// (directory, size), DIR/stand-disk-<size_mib>m.dat, written in full once by
// this instance and shared by every job prepared on it; a file of that name
// that this instance did not write is never trusted (it may be sparse) and is
// rewritten. Files are held under an exclusive flock so two probes never
// share one; a file is removed when its last job is released and when the
// instance ends. Files this instance did not create are never removed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace stand_disk {

class TestFiles {
public:
    struct Use {
        std::string path;
        bool reused = false;  // written by an earlier acquire() of this instance
        double write_s = 0;   // time spent writing it now (0 when reused)
    };

    TestFiles() = default;
    ~TestFiles();
    TestFiles(const TestFiles&) = delete;
    TestFiles& operator=(const TestFiles&) = delete;

    static std::string path_for(const std::string& dir, std::uint64_t size_mib);

    // One more user of the file for (dir, size_mib), written in full first
    // unless this instance already did. std::nullopt when `cancelled` said so
    // while writing (the partial file is removed). Throws std::runtime_error
    // naming the file when it is locked by another probe or cannot be written.
    std::optional<Use> acquire(const std::string& dir, std::uint64_t size_mib, const std::function<bool()>& cancelled,
                               const std::function<void(double)>& progress);

    // One user fewer; the last one removes the file. Returns false when
    // removing failed (errno set), true otherwise.
    bool release(const std::string& path);

    bool holds(const std::string& path) const { return files_.count(path) != 0; }

private:
    struct Entry {
        int lock_fd = -1;
        unsigned users = 0;
    };
    static bool remove(const std::string& path, Entry& entry);
    std::map<std::string, Entry> files_;
};

}  // namespace stand_disk
