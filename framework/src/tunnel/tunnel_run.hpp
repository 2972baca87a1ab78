// Runs a tunnel measurement (tunnel_spec.hpp) on the calling thread.
#pragma once

#include "tunnel/tunnel_result.hpp"
#include "tunnel/tunnel_spec.hpp"

#include <atomic>
#include <functional>

namespace stand::tunnel {

struct TunnelProgress {
    double elapsed_s = 0;
    double mbit_last_second = 0;
    std::uint64_t probes_ok = 0;
    std::uint64_t streams_dropped = 0;
    std::uint64_t reconnects = 0;
};

// What another thread may read while the tunnel runs.
struct TunnelLive {
    std::atomic<std::uint64_t> bytes{0};         // received through the tunnel so far
    std::atomic<std::int64_t> last_data_ns{0};   // load::now_ns() of the last byte; 0 before any
};

struct TunnelHooks {
    std::function<void(const TunnelProgress&)> on_progress;  // about once a second
    const std::atomic<bool>* stop = nullptr;                 // ends the window early
    TunnelLive* live = nullptr;                              // kept up to date when given
};

// Throws TunnelSpecError for a spec that cannot run (bad values, a
// non-local server without allow_remote, an unresolvable host, a CA file
// that cannot be read). Connection failures during the run are results.
TunnelResult run_tunnel(const TunnelSpec& spec, const TunnelHooks& hooks = {});

}  // namespace stand::tunnel
