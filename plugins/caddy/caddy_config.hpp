// Writes Caddy's native JSON config from the stand.proxy/1 knobs.
#pragma once

#include "proxy_knobs.hpp"

#include <boost/json.hpp>

#include <string>

namespace stand_caddy {

struct CaddySettings {
    stand_proxy_kit::ProxyKnobs knobs;  // workers → GOMAXPROCS: Caddy has no worker count
    std::string body = "ok";            // origin mode: a static_response with this body
};

// Whether upstream connections are kept alive. Unset is Caddy's default: on.
bool upstream_pool_on(const CaddySettings& s);

// The complete config for `caddy run --adapter ""`; `prefix` holds Caddy's
// storage (certificate cache, locks), so instances share nothing.
// knobs.max_connections has no counterpart in it (the plugin refuses it).
boost::json::object render_caddy_config(const CaddySettings& s, const std::string& prefix);

}  // namespace stand_caddy
