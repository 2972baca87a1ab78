// PasarGuard's bootstrap as named steps, each idempotent: the owner (once
// per data dir, with a temp key from the panel's CLI), then users in a group
// on the default core's "Shadowsocks TCP" inbound with a host giving the
// link; or, for Hysteria 2, a core config of its own with Xray's hysteria
// inbound, a group on it and a host pinning the core's certificate.
#pragma once

#include "pasarguard_api.hpp"

#include <stand/kits/panel/hysteria2.hpp>

#include <filesystem>
#include <functional>
#include <string>

namespace stand_pasarguard {

// The address the hosts name when no node runs here (compat's "unserved_links").
inline constexpr const char* kNodeAddress = "node1.bench.test";

// The key in what `generate-temp-key` printed ("Temp key: <key>");
// Error(STAND_E_BAD_RESPONSE) with an excerpt when there is none.
std::string parse_temp_key(const std::string& output);

// Creates the owner unless `marker` says an earlier bootstrap did; `temp_key`
// runs the panel's CLI (`generate-temp-key`) and returns the key.
void ensure_owner(Api& api, const std::filesystem::path& marker, const std::function<std::string()>& temp_key);

// Where users go: the group they join and the core config it is on (what a node runs).
struct Placement {
    long long group = 0, core = 0;
};
// `address` is what the host's links name: the node's, or kNodeAddress.
Placement place_on_shadowsocks(Api& api, const std::string& address);

struct Hysteria2Inbound {
    stand_panel_kit::Hysteria2Certificate cert;
    int port = 0;
    std::string congestion;  // "" keeps Xray's
    std::string listen;      // "" binds every interface (a node elsewhere)
};
Placement place_on_hysteria2(Api& api, const Hysteria2Inbound& inbound, const std::string& address);

}  // namespace stand_pasarguard
