// The keys of traffic_accounting (accounting.cpp; it runs in
// accounting_run.cpp): stand pushes a known number of bytes through each of
// N users' Hysteria 2 tunnels at once, then reads each user's traffic as
// the panel counts it until the counts settle, and compares.
#pragma once

#include "scenario/scenario_model.hpp"
#include "scenario/steps/tunnel.hpp"

#include <cstdint>

namespace stand::scenario {

struct AccountingStep {
    TunnelSource source;              // user: the first of the users counted
    std::uint32_t users = 1;          // users user..user+users-1, each one tunnel at once
    double mib_per_user = 4;          // the body each user's tunnel downloads
    Seconds ramp{2};                  // the tunnels connect spread over it, then download together
    Seconds transfer_within{300};     // every download done by then, or the step fails
    Seconds settle_within{60};        // how long the panel's counts are polled after it
    Seconds poll_every{1};            // start to start; a poll reads every user's count once
    double tolerance_pct = 1;         // a count within this of stand's is right
};

}  // namespace stand::scenario
