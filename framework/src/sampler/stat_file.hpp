// A cgroupfs or procfs file read again and again: opened once, re-read
// with pread at offset 0 (the kernel regenerates seq_file contents), so a
// sample costs one syscall per file. A file that cannot be opened is retried
// on the next read (a group may appear later); a read error (ENODEV after
// the group was removed) reads as absent.
//
// Reopen::each_read is for cgroup.procs: on v1 an open descriptor keeps
// serving the pid list it loaded first (the kernel caches it per open file
// while it is re-read within a second), so it must be opened anew.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace stand::sampler {

class StatFile {
public:
    enum class Reopen { never, each_read };
    explicit StatFile(std::filesystem::path path, Reopen reopen = Reopen::never);
    ~StatFile();
    StatFile(const StatFile&) = delete;
    StatFile& operator=(const StatFile&) = delete;
    StatFile(StatFile&& other) noexcept;
    StatFile& operator=(StatFile&&) = delete;

    // Valid until the next read(). nullopt when missing or unreadable.
    std::optional<std::string_view> read();
    const std::filesystem::path& path() const noexcept { return path_; }

private:
    std::filesystem::path path_;
    Reopen reopen_;
    int fd_ = -1;
    std::string buffer_;
};

}  // namespace stand::sampler
