// Websocket echo load: N clients each upgrade once (ws://) and then send a
// message and wait for its echo, in a loop, for the duration. Counts the
// upgrades that succeeded, the sessions dropped after connecting, and the
// round-trip time of every echo.
#pragma once

#include "load/hdr_histogram.hpp"

#include <boost/json/object.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace stand::load {

struct WsEchoSpec {
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;
    std::string path = "/ws";
    unsigned connections = 200;
    std::chrono::nanoseconds duration = std::chrono::seconds(10);
    std::size_t message_bytes = 64;
    std::chrono::milliseconds timeout{5000};  // connect + upgrade, and each echo
    std::set<unsigned> cpus;                  // the client thread's CPUs; empty: anywhere
};

struct WsEchoResult {
    unsigned connected = 0;  // upgrades that succeeded
    unsigned failed = 0;     // connect or upgrade failed
    unsigned dropped = 0;    // sessions that broke after the upgrade, before the end
    std::uint64_t echoes = 0;
    std::uint64_t mismatched = 0;  // an echo that differed from what was sent
    double elapsed_s = 0;
    double cpu_s = 0;        // the client thread's CPU
    HdrHistogram rtt_us{60'000'000ULL};
    std::vector<std::string> errors;  // the first few, for the report
    boost::json::object to_json() const;
};

// Only loopback targets (the caller checks the endpoint came from a local
// plugin). Throws std::invalid_argument for a bad spec.
WsEchoResult run_ws_echo(const WsEchoSpec& spec, const std::atomic<bool>* stop = nullptr);

}  // namespace stand::load
