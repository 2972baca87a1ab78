#include "scenario/steps/plugin_port.hpp"

#include <stand/ext/lifecycle.h>
#include <stand/ext/panel.h>
#include <stand/ext/probe.h>
#include <stand/ext/proxy.h>

namespace stand::scenario {

std::string_view abi_name(PortCall call) {
    switch (call) {
    case PortCall::install: return "lifecycle.install";
    case PortCall::start: return "lifecycle.start";
    case PortCall::restart: return "lifecycle.restart";
    case PortCall::stop: return "lifecycle.stop";
    case PortCall::wipe: return "lifecycle.wipe";
    case PortCall::facts: return "lifecycle.facts";
    case PortCall::readiness: return "lifecycle.readiness";
    case PortCall::bootstrap: return "panel.bootstrap";
    case PortCall::create_user: return "panel.create_user";
    case PortCall::delete_user: return "panel.delete_user";
    case PortCall::set_user_enabled: return "panel.set_user_enabled";
    case PortCall::user_traffic: return "panel.user_traffic";
    case PortCall::admin_call: return "panel.admin_call";
    case PortCall::dashboard_requests: return "panel.dashboard_requests";
    case PortCall::configure: return "proxy.configure";
    case PortCall::effective_defaults: return "proxy.effective_defaults";
    case PortCall::endpoint: return "proxy.endpoint";
    case PortCall::prepare: return "probe.prepare";
    case PortCall::run: return "probe.run";
    case PortCall::cleanup: return "probe.cleanup";
    case PortCall::http_calls: return "http_calls";
    case PortCall::ended_processes: return "ended_processes";
    }
    return "?";
}

std::string_view interface_of(PortCall call) {
    const std::string_view name = abi_name(call);
    if (name.starts_with("lifecycle.")) return STAND_LIFECYCLE_ID;
    if (name.starts_with("panel.")) return STAND_PANEL_ID;
    if (name.starts_with("proxy.")) return STAND_PROXY_ID;
    if (name.starts_with("probe.")) return STAND_PROBE_ID;
    return "";
}

}  // namespace stand::scenario
