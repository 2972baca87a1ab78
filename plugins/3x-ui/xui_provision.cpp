#include "xui_provision.hpp"

#include "xui_config.hpp"

#include <stand/kits/panel/tcp_wait.hpp>

#include <fstream>

namespace stand_3x_ui {

using stand::cpp::Error;

namespace {

constexpr const char* kVlessRemark = "stand-vless-reality";
constexpr const char* kHysteria2Remark = "stand-hysteria2";

// x-ui restarts Xray for the new template; an inbound added before Xray is
// back is stored but never reaches the running core ("Unable to add inbound
// on local: ... connection refused").
void move_xray_ports(XuiApi& api, const Provisioning& p, const std::function<void()>& moved) {
    if (!api.adjust_xray_template(p.xray_api_port, p.xray_metrics_port, p.allow_private)) return;
    moved();
    if (!stand_panel_kit::wait_tcp_listening("127.0.0.1", p.xray_api_port, 30000))
        throw Error(STAND_E_TIMEOUT, "3x-ui: bootstrap: Xray did not come back on its API port 127.0.0.1:" +
                                         std::to_string(p.xray_api_port) + " within 30 s after x-ui restarted it (" +
                                         p.log_dir + ")");
}

long long ensure_inbound(XuiApi& api, const Provisioning& p) {
    const std::string listen = p.docker ? "" : p.host;
    if (p.protocol == Protocol::hysteria2) {
        if (auto id = api.find_inbound(kHysteria2Remark)) return *id;
        return api.add_hysteria2_inbound(kHysteria2Remark, listen, p.inbound_port, *p.hysteria2);
    }
    if (auto id = api.find_inbound(kVlessRemark)) return *id;
    return api.add_vless_reality_inbound(kVlessRemark, listen, p.inbound_port);
}

std::string subscription_base(XuiApi& api, const Provisioning& p) {
    auto sub = api.sub_settings();
    if (!p.docker && sub.uri.empty() && sub.port != p.sub_port)
        throw Error(STAND_E_BAD_STATE, "3x-ui: bootstrap: the subscription server is on port " + std::to_string(sub.port) +
                                           " (x-ui's settings in the data dir), config.sub_port is " +
                                           std::to_string(p.sub_port) + ": wipe the data dir to apply the config");
    std::string base = sub.uri.empty() ? "http://" + p.host + ":" + std::to_string(p.sub_port) + sub.path : sub.uri;
    if (base.back() != '/') base += "/";
    return base;
}

}  // namespace

int remembered_xray_api_port(const std::filesystem::path& data_dir) {
    std::ifstream in(data_dir / "stand-xray-ports");
    int port = 0;
    return in >> port ? port : kXrayApiDefault;
}

void remember_xray_api_port(const std::filesystem::path& data_dir, int port) {
    std::ofstream(data_dir / "stand-xray-ports") << port << "\n";
}

Provisioned provision(XuiApi& api, const Provisioning& p, const std::function<void()>& moved_xray_ports) {
    Provisioned out;
    out.client_api = api.detect_client_api();
    if (!p.docker) move_xray_ports(api, p, moved_xray_ports);
    out.inbound_id = ensure_inbound(api, p);
    out.sub_base = subscription_base(api, p);
    return out;
}

}  // namespace stand_3x_ui
