// The keys every Hysteria 2 step takes for where its client's link and its
// sink come from (tunnel.cpp reads them): tunnel_throughput, many_clients,
// revoke_under_traffic.
#pragma once

#include "scenario/steps/step_kind.hpp"
#include "scenario/steps/tunnel.hpp"

namespace stand::scenario::steps {

// server, sink, cc, if_elsewhere.
TunnelSource read_tunnel_source(const ObjectReader& r, const StepParseContext& ctx);

extern const StepKey kTunnelServer;
extern const StepKey kTunnelSink;
extern const StepKey kTunnelCc;
extern const StepKey kTunnelIfElsewhere;

}  // namespace stand::scenario::steps
