// Remnawave's bootstrap as named steps, each idempotent (a second bootstrap,
// or two at once, leaves one of everything): users join the default internal
// squad and a host on its first inbound gives each a link; or, for Hysteria
// 2, a config profile with Xray's hysteria inbound, a squad on it and a host
// pinning the core's certificate.
#pragma once

#include "remnawave_api.hpp"

#include <stand/kits/panel/hysteria2.hpp>

#include <functional>
#include <string>

namespace stand_remnawave {

// Where a bootstrap leaves the users: the squad they join, and the field of
// a created user its links carry as the tunnel's credential ("" for none).
struct Placement {
    std::string squad;
    std::string tunnel_auth_field;
};

// The address the adapter's hosts name when no node is registered (the
// links are judged, the tunnel is not carried: compat's "unserved_links").
inline constexpr const char* kNodeAddress = "node1.bench.test";

// The node the hosts name: its address, and what registers it on the
// users' profile and inbound before the host is made. No address: none is
// registered, the hosts name kNodeAddress.
struct NodeSite {
    std::string address;
    std::function<void(const std::string& profile, const std::string& inbound)> enrol;
};

// The default squad (made by a migration, first in the list) and a host on
// its first inbound (at the inbound's port when a node serves it).
Placement place_on_default_squad(Api& api, const NodeSite& node);

struct Hysteria2Inbound {
    stand_panel_kit::Hysteria2Certificate cert;
    int port = 0;
    std::string congestion;  // "" keeps Xray's
};
// The profile, the squad and the pinning host of Hysteria 2, all named
// "stand-hysteria2"; tunnel_auth is the user's vlessUuid.
Placement place_on_hysteria2(Api& api, const Hysteria2Inbound& inbound, const NodeSite& node);

}  // namespace stand_remnawave
