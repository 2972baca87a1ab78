// A cgroupfs or procfs file read again and again: opened once, re-read
// with pread at offset 0 (the kernel regenerates seq_file contents), so a
// sample costs one syscall per file. A file that cannot be opened is retried
// on the next read (a group may appear later); a read error (ENODEV after
// the group was removed) reads as absent.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace stand::sampler {

class StatFile {
public:
    explicit StatFile(std::filesystem::path path);
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
    int fd_ = -1;
    std::string buffer_;
};

}  // namespace stand::sampler
