// %%name%%'s config file from the stand.proxy/1 knobs. The skeleton drives
// nginx, so this writes an nginx.conf: replace it with your proxy's config
// format (and keep it free of host types, so unit tests can call it).
#pragma once

#include <stand/kits/proxy/proxy_knobs.hpp>

#include <cstdint>
#include <string>

namespace %%ident%%_adapter {

// Connections per worker when knobs.max_connections is unset.
inline constexpr std::int64_t kDefaultConnections = 4096;

// Whether backend connections are kept and reused: the knob, else the
// proxy's own default (nginx 1.22 keeps none unless told).
bool upstream_pool_on(const stand_proxy_kit::ProxySettings& s);

// The whole config; `prefix` is the data dir (logs, pid, temp files).
std::string render_config(const stand_proxy_kit::ProxySettings& s, const std::string& prefix);

}  // namespace %%ident%%_adapter
