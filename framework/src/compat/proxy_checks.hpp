// The stand.proxy/1 compat checks, run for every plugin that declares
// stand.proxy/1 and stand.lifecycle/1, each in a forked child against the
// host's backend (`stand backend`): the config renders and the binary
// accepts it, a request is proxied, the pool knob changes backend
// connection reuse, TLS serves the given certificate, a websocket upgrade
// passes. When the plugin's binary is missing (install() says
// STAND_E_NOT_FOUND) each check is skipped with that message.
#pragma once

#include "compat/compat_suite.hpp"

namespace stand::compat {

std::vector<Check> proxy_checks(const std::shared_ptr<loader::LoadedPlugin>& plugin, const CompatOptions& options);

}  // namespace stand::compat
