// The haproxy plugin's settings its tests render (haproxy_config_test.cpp
// here, and `haproxy -c` on them in tests/unit/programs/haproxy_check_test.cpp):
// an origin, and a proxy to two upstreams with the pool unset, on or off.
#pragma once

#include "haproxy_config.hpp"

#include <optional>
#include <string_view>

namespace stand_haproxy::test {

inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

inline HaproxySettings origin() {
    HaproxySettings s;
    s.knobs.listen_port = 18081;
    return s;
}

inline HaproxySettings proxying(std::optional<bool> keepalive) {
    HaproxySettings s = origin();
    s.knobs.upstreams = {{"127.0.0.1", 9000}, {"127.0.0.2", 9001}};
    s.knobs.upstream_keepalive = keepalive;
    return s;
}

}  // namespace stand_haproxy::test
