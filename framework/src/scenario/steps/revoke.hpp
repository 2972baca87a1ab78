// The keys of revoke_under_traffic (revoke.cpp; it runs in revoke_run.cpp):
// a user's Hysteria 2 tunnel carries streams beside other users' tunnels,
// the panel revokes the user, and stand times what stops when.
#pragma once

#include "scenario/scenario_model.hpp"
#include "scenario/steps/tunnel.hpp"

#include <chrono>
#include <cstdint>

namespace stand::scenario {

struct RevokeStep {
    enum class Action { delete_user, disable_user } action = Action::delete_user;
    TunnelSource source;             // user: the revoked one; its links, sink, cc
    std::uint32_t others = 1;        // users user+1 .. user+others, each a tunnel of its own beside it
    std::uint32_t streams = 4;       // /zero downloads per tunnel
    Seconds after{3};                // traffic before the revocation
    Seconds watch{10};               // how long after it stand watches (T of "still flowing after T")
    std::chrono::milliseconds probe_every{100};  // new connections tried with the revoked credential
};

}  // namespace stand::scenario
