// How the tunnel steps run (their keys are read in tunnel.cpp): the
// Hysteria 2 client against a created user's link (or the given one), the
// box's window, and what disrupted the tunnel.
#pragma once

#include "hysteria/hysteria_link.hpp"
#include "scenario/steps/rep_context.hpp"
#include "scenario/steps/tunnel.hpp"
#include "tunnel/tunnel_spec.hpp"

#include <optional>
#include <string>
#include <vector>

namespace stand::scenario::steps {

// The links of users first..first+count-1 (or the source's "server" for
// each), fetched before a window: a second each at most on a loaded panel,
// which the steps' timeouts allow for. StepFailure naming the step; with
// "if_elsewhere": "skip", nullopt when the first link names a server not on
// this machine or a subscription holds no Hysteria 2 link: the step is then
// recorded as not measured, with why (loads, a finding).
std::optional<std::vector<hysteria::HysteriaLink>> links_here(RepContext& ctx, const Step& s,
                                                              const TunnelSource& source, std::uint32_t first,
                                                              std::uint32_t count);
// What to do about a server the client may not reach: the --param or key
// that points the step at one here, or allow_remote.
std::string remote_server_problem(const RepContext& ctx, const Step& s, const tunnel::RemoteServerError& e,
                                  const hysteria::HysteriaLink& link);
// host:port of the /zero and /small server: "sink", or the scenario's backend.
std::string tunnel_sink(RepContext& ctx, const Step& s, const TunnelSource& source);

// StepKind::run of tunnel_throughput: one tunnel on its own thread, the
// `during` step alongside it on this one.
void run_tunnel(RepContext& ctx, const Step& s, RepClock::time_point deadline);
// StepKind::run of many_clients: every client's link first (timed apart),
// then the clients over the ramp.
void run_many_clients(RepContext& ctx, const Step& s, RepClock::time_point deadline);

}  // namespace stand::scenario::steps
