// Names of the groups a run creates: <hierarchy root>/stand/<run group>/<box>,
// where the run group "<run-id>.<pid>.<start>" names its owner process (pid
// plus start time in clock ticks since boot, so a recycled pid does not look
// like the owner). Stale cleanup parses it back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace stand::box {

inline constexpr std::string_view kTopGroup = "stand";

struct Owner {
    pid_t pid = 0;
    std::uint64_t start_ticks = 0;
};

Owner current_owner();
// Field 22 of /proc/<pid>/stat; nullopt when the process is gone.
std::optional<std::uint64_t> process_start_ticks(pid_t pid);
// The process exists and is the same one (start time matches).
bool owner_alive(const Owner& owner);

// Box names: [A-Za-z0-9_-], 1..64 characters.
bool valid_group_word(std::string_view word) noexcept;
// Run ids: [A-Za-z0-9_.-], 1..200 characters, not starting with '.'.
bool valid_run_id(std::string_view id) noexcept;
std::string run_group_name(std::string_view run_id, const Owner& owner);
// nullopt for a name not made by run_group_name().
std::optional<Owner> parse_run_group_name(std::string_view name);

// "YYYYmmdd-HHMMSS-xxxx" (UTC, random hex suffix).
std::string new_run_id();

}  // namespace stand::box
