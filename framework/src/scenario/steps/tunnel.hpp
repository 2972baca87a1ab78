// The keys of tunnel_throughput and many_clients (tunnel.cpp).
#pragma once

#include "scenario/scenario_model.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace stand::scenario {

// Where a Hysteria 2 client gets its link: the given hysteria2:// link, or
// the subscription of a created user (its first hysteria2:// line).
struct TunnelSource {
    std::string server;      // a hysteria2:// link; empty: from the subscription
    std::uint32_t user = 0;  // the created user's index (tunnel_throughput)
    std::string sink;        // host:port the server dials; empty: the scenario's backend
    std::string cc = "bbr";
    // A user's link naming a server that is not on this machine (allow_remote
    // off; a panel whose node runs elsewhere, or a double with no core): fail
    // the step, or skip it: recorded as not measured with why (a finding),
    // its `during` step still run as planned.
    bool skip_elsewhere = false;
};
// One tunnel with `streams` /zero downloads and a /small probe every
// probe_interval; with `during`, that step runs alongside it, starting
// during_after into the tunnel (the one-server scenario's D and E).
struct TunnelStep {
    TunnelSource source;
    std::uint32_t streams = 1;
    Seconds duration{30};
    std::chrono::milliseconds probe_interval{97};
    double below_mbit = 0;  // 0: half the median second
    std::shared_ptr<const Step> during;
    Seconds during_after{0};
};
// `clients` tunnels, client i with user i's link (or `server` with each
// user's auth), connecting over `ramp`, a /small every `every`.
struct ManyClientsStep {
    TunnelSource source;
    std::uint32_t clients = 400;
    Seconds duration{60};
    Seconds ramp{20};
    Seconds every{2};
};

}  // namespace stand::scenario
