// Durations on the command line: "10s", "500ms", "1m", "1h", "250us", "2.5s";
// a bare number is seconds.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace stand::load {

// Throws std::invalid_argument naming `what` when `text` is not a duration
// in [0, 1 day] (0 only when allow_zero).
std::chrono::nanoseconds parse_duration(std::string_view text, std::string_view what,
                                        bool allow_zero = false);

// "10s", "500ms", "1.5s", "2m", "250us" (the shortest exact form it knows).
std::string format_duration(std::chrono::nanoseconds d);

}  // namespace stand::load
