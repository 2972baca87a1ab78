// 3x-ui's bootstrap as named steps, each idempotent: the client API the
// panel has; natively, Xray's API and metrics ports moved off x-ui's fixed
// defaults (and loopback let through), then Xray waited for; one inbound on
// the listen address, VLESS Reality (TCP) or Hysteria 2 (UDP, the core's
// certificate pinned in the links); where the subscription server serves.
#pragma once

#include "xui_api.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace stand_3x_ui {

struct Provisioning {
    bool docker = false;
    std::string host;  // the listen address (the inbound's, natively; docker binds the container's all)
    int sub_port = 2096, inbound_port = 4443;
    int xray_api_port = 0, xray_metrics_port = 0;
    bool allow_private = true;
    Protocol protocol = Protocol::vless_reality;
    std::optional<Hysteria2Inbound> hysteria2;  // with Protocol::hysteria2
    std::string log_dir;                        // named when Xray does not come back
};

struct Provisioned {
    ClientApi client_api = ClientApi::v31;
    long long inbound_id = 0;
    std::string sub_base;  // the subscription URL's prefix, ending in '/'
};

// Xray's API port as bootstrap left it in the data dir (stand-xray-ports),
// x-ui's default until bootstrap moved it.
int remembered_xray_api_port(const std::filesystem::path& data_dir);
void remember_xray_api_port(const std::filesystem::path& data_dir, int port);

// `moved_xray_ports` is called when the template changed (the ports to find Xray on from now).
Provisioned provision(XuiApi& api, const Provisioning& p, const std::function<void()>& moved_xray_ports);

}  // namespace stand_3x_ui
