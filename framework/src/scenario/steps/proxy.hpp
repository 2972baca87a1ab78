// The keys of configure, websocket and hold_idle (proxy.cpp).
#pragma once

#include "scenario/scenario_model.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace stand::scenario {

// stand.proxy/1: configure() with knobs the host composes: `knobs` as
// given, the scenario backend as the upstream unless `knobs` names upstreams,
// and the shorthands below (see scenarios/README.md).
struct ConfigureStep {
    boost::json::object knobs;
    // Absent: not sent (the plugin keeps what it has); null: the proxy's own
    // default; true/false: the pool on or off.
    std::optional<boost::json::value> upstream_keepalive;
    // A key type of tls::known_key_types(): the host's shared test
    // certificate of that type; "off": plain HTTP.
    std::optional<std::string> tls;
    std::optional<bool> websocket;
};
// Websocket echo through the plugin's endpoint (ws:// only): `connections`
// clients each upgrade at `path` and echo `message_bytes` in a loop.
struct WebsocketStep {
    Seconds duration{10};
    std::uint32_t connections = 200;
    std::uint32_t message_bytes = 64;
    std::string path = "/ws";
};
// `connections` idle connections to the plugin's endpoint held for `hold`:
// how many the system keeps.
struct HoldIdleStep {
    std::uint32_t connections = 1000;
    Seconds hold{10};
};

}  // namespace stand::scenario
