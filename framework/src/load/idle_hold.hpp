// Idle connections held: open N connections to an endpoint (with a TLS
// handshake for https), send nothing, and count after the hold how many the
// server still keeps open: what a proxy does with many idle clients
// (limits, timeouts, memory).
#pragma once

#include <boost/json/object.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace stand::load {

struct IdleHoldSpec {
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;
    bool tls = false;  // handshake (no verification: only the count matters)
    unsigned connections = 1000;
    std::chrono::nanoseconds hold = std::chrono::seconds(10);
    std::chrono::milliseconds connect_timeout{5000};
    std::set<unsigned> cpus;
};

struct IdleHoldResult {
    unsigned opened = 0;   // connected (and handshaken)
    unsigned failed = 0;   // could not connect or handshake
    unsigned closed = 0;   // opened, then closed or reset by the server during the hold
    unsigned held = 0;     // still open at the end of the hold
    double open_s = 0;     // time to open them all
    unsigned fd_limit = 0; // RLIMIT_NOFILE after raising the soft limit to the hard one
    std::vector<std::string> errors;
    boost::json::object to_json() const;
};

// Throws std::invalid_argument for a bad spec, or when the file descriptor
// limit cannot hold the connections (naming both numbers).
IdleHoldResult hold_idle_connections(const IdleHoldSpec& spec, const std::atomic<bool>* stop = nullptr);

}  // namespace stand::load
