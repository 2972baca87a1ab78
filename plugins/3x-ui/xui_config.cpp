#include "xui_config.hpp"

#include <stand/kits/panel/hysteria2.hpp>

namespace stand_3x_ui {

const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_panel_kit::declare_launch_keys(s, stand_panel_kit::RunMode::native, {kInstalledBinary});
        s.key("command").describe("native argv of the panel; `<argv> setting ...` configures a new data dir");
        s.key("working_dir").describe("native; default: the folder of command[0]");
        s.key("env").describe("native env added to XUI_DB_FOLDER=<data dir>, XUI_LOG_FOLDER, XUI_BIN_FOLDER=<data dir>/bin");
        s.string("bin_folder",
                 "native: where Xray and its geo files are (linked into <data dir>/bin, x-ui's XUI_BIN_FOLDER); "
                 "default: bin/ in the working dir");
        s.string("image", "docker mode: the panel's image").by_default(kImage);
        s.string("host", "the address the panel, the subscription server and the inbound bind").by_default("127.0.0.1");
        s.integer("port", "the panel's HTTP port").range(1, 65535).by_default(2053);
        s.integer("sub_port", "the subscription server's port").range(1, 65535).by_default(2096);
        s.string("web_base_path", "the panel's URL path (webBasePath), a secret of the panel: never logged")
            .by_default("/")
            .secret();
        stand_panel_kit::declare_hysteria2_keys(
            s, "vless-reality",
            "the inbound users join; hysteria2: Xray's hysteria inbound (version 2), TLS with a self-signed "
            "certificate made in the data dir and pinned in the links (pinSHA256), no obfuscation");
        s.key("inbound_port")
            .describe("the users' inbound: TCP for vless-reality, UDP for hysteria2")
            .by_default(stand_panel_kit::kDefaultInboundPort);
        s.integer("xray_api_port", "Xray's gRPC API (loopback), moved at bootstrap").range(1, 65535).by_default(kXrayApiDefault);
        s.integer("xray_metrics_port", "Xray's metrics listener (loopback); 0 removes it")
            .range(0, 65535)
            .by_default(kXrayMetricsDefault);
        s.boolean("block_private",
                  "native: keep Xray's blocking of private destinations (x-ui's rule geoip:private -> blocked, "
                  "freedom's default final rule); by default stand lets loopback through, where the tunnel's sink is")
            .by_default(false);
        s.integer("http_timeout_ms", "per admin call, connect to last byte").range(100, 600000).by_default(30000);
        stand_panel_kit::declare_credential_keys(s, "admin", "the panel's admin login",
                                                 "the admin password, applied with x-ui setting before the first start");
        return s;
    }();
    return spec;
}

Options read_options(const boost::json::object& config) {
    auto cfg = config_spec().read(config);
    Options o;
    o.launch = stand_panel_kit::read_launch_config(cfg);
    auto& s = o.settings;
    s = {cfg.string("host"), cfg.string("image"), cfg.string("web_base_path"), static_cast<int>(cfg.integer("port")),
         static_cast<int>(cfg.integer("sub_port")), static_cast<int>(cfg.integer("inbound_port")),
         cfg.string("protocol") == "hysteria2"};
    if (s.base_path.empty() || s.base_path.front() != '/') s.base_path = "/" + s.base_path;
    if (s.base_path.back() != '/') s.base_path += "/";
    o.congestion = cfg.string("congestion");
    if (o.congestion != "default" && !s.hysteria2)
        throw stand::cpp::ConfigError("config.congestion: only for \"protocol\": \"hysteria2\"");
    o.provisioning = {o.launch.mode == stand_panel_kit::RunMode::docker, s.host, s.sub_port, s.inbound_port,
                      static_cast<int>(cfg.integer("xray_api_port")), static_cast<int>(cfg.integer("xray_metrics_port")),
                      !cfg.boolean("block_private"), s.hysteria2 ? Protocol::hysteria2 : Protocol::vless_reality, {}, {}};
    o.bin_folder = cfg.string("bin_folder");
    o.given = stand_panel_kit::read_given_credentials(cfg);
    o.http_timeout_ms = static_cast<int>(cfg.integer("http_timeout_ms"));
    cfg.finish();
    return o;
}

}  // namespace stand_3x_ui
