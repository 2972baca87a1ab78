// Writes haproxy.cfg from the stand.proxy/1 knobs.
#pragma once

#include <stand/kits/proxy/proxy_knobs.hpp>

#include <string>

namespace stand_haproxy {

// The settings and the PEM haproxy reads (cert + key in one file, what
// `bind ... ssl crt` takes); tls_pem is set with knobs.tls.
struct HaproxySettings : stand_proxy_kit::ProxySettings {
    std::string tls_pem;
};

inline constexpr const char* kAlpn = "h2,http/1.1";
inline constexpr const char* kTunnelTimeout = "1h";

// Whether server connections are kept and reused. Unset is haproxy's default,
// `http-reuse safe`: on.
bool upstream_pool_on(const stand_proxy_kit::ProxySettings& s);

// The complete haproxy.cfg, for `haproxy -f FILE -db`.
std::string render_haproxy_cfg(const HaproxySettings& s);

}  // namespace stand_haproxy
