// The backend's counters: bumped by every connection, whatever its thread,
// and read by the stats endpoint and at shutdown.
#pragma once

#include <boost/json/object.hpp>

#include <atomic>
#include <cstdint>

namespace stand::backend {

// A consistent-enough copy of the counters (each is read on its own).
struct BackendStats {
    std::uint64_t accepted = 0;     // TCP connections accepted on the data listener
    std::uint64_t open = 0;         // data connections open now
    std::uint64_t requests = 0;     // HTTP responses written on data connections
    std::uint64_t ws_sessions = 0;  // websocket upgrades accepted
    std::uint64_t ws_messages = 0;  // websocket messages echoed
    std::uint64_t started_unix_ms = 0;
};

boost::json::object to_json(const BackendStats& stats);

struct BackendCounters {
    std::atomic<std::uint64_t> accepted{0};
    std::atomic<std::uint64_t> open{0};
    std::atomic<std::uint64_t> requests{0};
    std::atomic<std::uint64_t> ws_sessions{0};
    std::atomic<std::uint64_t> ws_messages{0};
    std::atomic<std::uint64_t> started_unix_ms{0};

    BackendStats snapshot() const noexcept;
};

// Counts a data connection as open for as long as it lives.
class OpenConnection {
public:
    explicit OpenConnection(BackendCounters& counters) noexcept : counters_(counters) {
        counters_.open.fetch_add(1, std::memory_order_relaxed);
    }
    ~OpenConnection() { counters_.open.fetch_sub(1, std::memory_order_relaxed); }
    OpenConnection(const OpenConnection&) = delete;
    OpenConnection& operator=(const OpenConnection&) = delete;

private:
    BackendCounters& counters_;
};

}  // namespace stand::backend
