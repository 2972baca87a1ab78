// Reading and writing cgroupfs files and directories, with errors that name
// the path and the errno text.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace stand::box {

class BoxError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string errno_text(int err);

// The whole file, or nullopt when it cannot be opened or read.
std::optional<std::string> read_text(const std::filesystem::path& file);
// read_text() trimmed of surrounding whitespace.
std::optional<std::string> read_value(const std::filesystem::path& file);
// Throws BoxError("cannot write '<value>' to <file>: <errno text>").
void write_text(const std::filesystem::path& file, std::string_view value);

// The pids listed in <dir>/cgroup.procs (empty when unreadable).
std::vector<pid_t> read_procs(const std::filesystem::path& dir);

// Creates one cgroup directory. Returns false when it already existed;
// throws BoxError for any other failure.
bool make_dir(const std::filesystem::path& dir);
// rmdir, retried while the kernel still reports it busy (tasks that were just
// killed leave asynchronously). True when gone (or never there).
bool remove_dir(const std::filesystem::path& dir, std::chrono::milliseconds patience);

// cgroup v1 reports "no memory limit" as LONG_MAX rounded down to a page.
std::uint64_t v1_unlimited_bytes();

}  // namespace stand::box
