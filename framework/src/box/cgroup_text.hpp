// Parsing of the small text files cgroupfs and /proc expose: one number,
// "key value" lines, whitespace-separated words. No allocation on the hot
// path; the sampler uses these at 10 Hz.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace stand::box {

// A decimal unsigned number, surrounding whitespace allowed; nullopt for
// anything else (including "max" and negative numbers).
std::optional<std::uint64_t> parse_u64(std::string_view s) noexcept;

// The number after `key` on the line "key <number>" of `text` (memory.stat,
// cpu.stat, memory.events, memory.oom_control).
std::optional<std::uint64_t> find_u64(std::string_view text, std::string_view key) noexcept;

// Non-empty lines (cgroup.procs: one pid a line).
std::size_t count_lines(std::string_view text) noexcept;

}  // namespace stand::box
