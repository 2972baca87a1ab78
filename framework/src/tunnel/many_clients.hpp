// Many Hysteria 2 clients at once, each with its own user's link (phase C
// of the one-server scenario): client i connects at ramp * i / n, then
// fetches the sink's /small on a new stream every `every` until the end.
// Handshake (connect to status 233) and request latencies, failures.
// With fetch_bytes, each client instead fetches that many bytes once
// (traffic_accounting), all of them together when the ramp is over, counts
// what its stream carried and disconnects; the run ends when every client
// is done.
#pragma once

#include "hysteria/hysteria_link.hpp"
#include "load/hdr_histogram.hpp"

#include <boost/json/object.hpp>

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

namespace stand::tunnel {

struct ManyClientsSpec {
    std::vector<hysteria::HysteriaLink> links;  // one per client
    std::string sink;                           // host:port
    std::chrono::nanoseconds duration = std::chrono::seconds(60);
    std::chrono::nanoseconds ramp = std::chrono::seconds(20);
    std::chrono::nanoseconds every = std::chrono::seconds(2);
    std::uint64_t fetch_bytes = 0;  // > 0: one GET /zero?bytes=N per client, no /small
    std::chrono::nanoseconds request_timeout = std::chrono::seconds(5);
    std::chrono::nanoseconds handshake_timeout = std::chrono::seconds(10);
    std::string congestion_control = "bbr";
    std::string ca_file;
    bool allow_remote = false;
};

// What one client's fetch_bytes stream carried through its tunnel: the
// proxied bytes, as the server's per-user counters see them.
struct ClientTransfer {
    std::uint64_t up = 0;    // the request
    std::uint64_t down = 0;  // the response, head and body
    bool ok = false;         // the whole body arrived
};

struct ManyClientsResult {
    std::uint64_t clients = 0;
    std::uint64_t connected = 0;         // reached status 233
    std::uint64_t handshake_failures = 0;
    std::uint64_t requests_ok = 0;
    std::uint64_t requests_failed = 0;
    std::uint64_t disconnects = 0;       // connections lost after authenticating
    load::HdrHistogram handshake_us{60'000'000};
    load::HdrHistogram request_us{60'000'000};
    double elapsed_s = 0;
    double cpu_s = 0;
    std::vector<std::string> errors;     // the first few
    std::vector<ClientTransfer> transfers;  // with fetch_bytes, per client in link order
    boost::json::object to_json() const;
};

// Throws TunnelSpecError (tunnel_spec.hpp) for a spec that cannot run.
ManyClientsResult run_many_clients(const ManyClientsSpec& spec, const std::atomic<bool>* stop = nullptr);

}  // namespace stand::tunnel
