// What the live-metrics listener (metrics_server.hpp) may take from the run
// it watches: a few file descriptors and a little CPU. A scraper that wants
// more waits for its turn or is refused, and the repetition notes it
// (ListenerLoad, scenario/listener_note.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace stand::live {

// A request must arrive whole, and its answer be taken, within this long of
// the connection's accept or its last answer, or the connection is closed:
// an idle keep-alive connection, a slowloris, an "Expect: 100-continue"
// whose body never comes, a client that does not read.
inline constexpr std::chrono::seconds kRequestTimeout{5};

// Accepts and requests together: this many a second after a burst of
// kOperationBurst (Prometheus scrapes once a second at most).
inline constexpr double kOperationsPerSecond = 50;
inline constexpr double kOperationBurst = 20;

// Connections served at once: 16, or one per 64 descriptors the process may
// open when that is fewer (at least 1), so that the measurement keeps the
// rest. A connection beyond it is closed as soon as it is accepted.
std::size_t connection_cap(std::uint64_t descriptor_limit) noexcept;
// The cap under this process's soft RLIMIT_NOFILE.
std::size_t connection_cap_here() noexcept;

// A token bucket: at most `rate` operations a second after a burst of `burst`.
class Pace {
public:
    Pace(double rate, double burst) noexcept;
    // How long the operation asked for at `now` waits for its turn (zero:
    // none); its turn is taken, so the next one waits behind it.
    std::chrono::nanoseconds wait_at(std::chrono::steady_clock::time_point now) noexcept;

private:
    double rate_, burst_, tokens_;
    std::chrono::steady_clock::time_point last_{};
    bool started_ = false;
};

}  // namespace stand::live
