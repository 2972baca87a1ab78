// The text of /proc/<pid>/stat and /proc/<pid>/status as the /proc tree
// source reads them (proc_tree_source.cpp).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace stand::sampler {

struct ProcStat {
    pid_t ppid = 0;
    std::uint64_t cpu_ticks = 0;  // utime + stime + cutime + cstime
};

// "pid (comm) state ppid ...": nullopt without the ")" that ends comm (which
// may hold spaces and parentheses); fields that are not numbers read as 0.
std::optional<ProcStat> parse_proc_stat(std::string_view text);

// "VmRSS:\t   1234 kB" -> bytes (a value without "kB", "Threads: 4", as it
// is); `key` only at the start of a line.
std::optional<std::uint64_t> status_kb(std::string_view text, std::string_view key);

}  // namespace stand::sampler
