// What a load step through a proxy adds to the generic load metrics: the
// backend's side (connections per request: the pool knob's effect), the
// cost of a TLS handshake on each side, and the findings they support.
#pragma once

#include "target/backend.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace stand::scenario {

struct ProxyLoadInputs {
    std::string name;                    // the step's name: metric prefix
    std::string scope;                   // for findings
    std::uint64_t completed = 0;         // responses
    std::uint64_t connections = 0;       // opened by the generator
    std::uint64_t tls_handshakes = 0;    // full or resumed, by the generator
    double client_cpu_s = 0;             // the generator's user + system CPU
    std::optional<double> box_cpu_s;     // the system under test's box over the window
    std::optional<target::BackendStats> backend_before, backend_after;
    std::optional<double> backend_cpu_s;
    bool pool_off_by_scenario = false;   // a configure step turned the backend pool off: no reuse is the point
};

// Adds to `metrics` (keys prefixed "<name>."):
//   backend_conns, backend_conns_per_req, backend_requests_per_req,
//   backend_cpu_us_per_req, conns_per_req,
//   handshakes, server_us_per_handshake, client_us_per_handshake
// and to `findings`: "no-backend-reuse" (a new backend connection for most
// requests: says why a proxy's CPU per request is high; not where the
// scenario turned the pool off), "generator-bound-tls"
// (the client spent more CPU per handshake than the server: the number
// measures the generator).
void add_proxy_load_metrics(const ProxyLoadInputs& in, boost::json::object& metrics, boost::json::array& findings);

}  // namespace stand::scenario
