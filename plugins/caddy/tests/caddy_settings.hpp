// The caddy plugin's settings its tests render (caddy_config_test.cpp here,
// and Caddy's own `caddy validate` on them in
// tests/unit/programs/caddy_check_test.cpp): an origin, and a proxy to two
// upstreams with the pool unset, on or off.
#pragma once

#include "caddy_config.hpp"

#include <optional>

namespace stand_caddy::test {

inline CaddySettings origin() {
    CaddySettings s;
    s.knobs.listen_port = 18082;
    return s;
}

inline CaddySettings proxying(std::optional<bool> keepalive) {
    CaddySettings s = origin();
    s.knobs.upstreams = {{"127.0.0.1", 9000}, {"::1", 9001}};
    s.knobs.upstream_keepalive = keepalive;
    return s;
}

}  // namespace stand_caddy::test
