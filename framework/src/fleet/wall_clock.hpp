// The wall clock (CLOCK_REALTIME) in nanoseconds since the epoch: what
// hosts of a fleet compare (`stand fleet clock`) and start generators by
// (`stand load --start-at`). Timing within a host uses steady clocks.
#pragma once

#include <cstdint>
#include <ctime>

namespace stand::fleet {

inline std::int64_t wall_ns() noexcept {
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace stand::fleet
