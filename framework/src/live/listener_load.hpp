// What scrapers asked of the live-metrics listener since it opened: the
// listener counts (metrics_server.cpp), a repetition compares its start and
// end (scenario/listener_note.hpp), since the listener's work shares the
// machine with the measurement.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stand::live {

struct ListenerLoad {
    std::uint64_t requests = 0;   // answered
    std::uint64_t paced = 0;      // accepts and requests that waited for their turn (listener_limits.hpp)
    std::uint64_t refused = 0;    // connections closed when accepted: the cap was reached
    std::uint64_t timed_out = 0;  // connections closed for a request not whole within kRequestTimeout
    std::size_t cap = 0;          // the listener's connection cap; 0: no listener

    // Adds the counts of `more` (its cap, when set, replaces this one).
    void add(const ListenerLoad& more) noexcept;
    // The counts since `earlier`, with this cap.
    ListenerLoad since(const ListenerLoad& earlier) const noexcept;
};

}  // namespace stand::live
