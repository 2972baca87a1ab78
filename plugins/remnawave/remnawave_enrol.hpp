// A Remnawave node in the backend: registered by name on the profile's
// inbound (POST /api/nodes), then watched (GET /api/nodes) until the backend
// says it connected: it has then sent the node Xray's config, and the
// node's core serves the users the backend adds.
#pragma once

#include "remnawave_api.hpp"

#include <string>

namespace stand_remnawave {

inline constexpr const char* kNodeName = "stand-node";

struct NodeRegistration {
    std::string address;  // where the backend reaches the node, and what the hosts name
    int port = 2222;      // NODE_PORT
    int ready_timeout_s = 60;
    std::string log;      // where a node that never connects says why
};

// Registers the node when none has its name (two bootstraps at once: the
// second is refused, A033, and finds the first's), then waits. Error
// STAND_E_TIMEOUT names the backend's last status message and `log`.
void register_node(Api& api, const NodeRegistration& node, const std::string& profile, const std::string& inbound);

}  // namespace stand_remnawave
