#include "pasarguard_config.hpp"

#include "pasarguard_deployment.hpp"
#include "pasarguard_node.hpp"

#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/hysteria2.hpp>
#include <stand/kits/panel/launcher.hpp>

namespace stand_pasarguard {

const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_panel_kit::declare_launch_keys(s, stand_panel_kit::RunMode::docker);
        s.string("source_dir", "native: PasarGuard's checkout (main.py, pasarguard-cli.py, a built dashboard/build)");
        s.string("python", "native: the interpreter; default source_dir/.venv/bin/python3 (`uv sync`)");
        s.key("command").describe(
            "native, instead of source_dir: a command that starts the panel; ${data_dir} ${port} ${listen} expanded");
        s.key("working_dir").describe("native; default: source_dir");
        s.key("env").describe(
            "native env added to UVICORN_HOST, UVICORN_PORT, SQLALCHEMY_DATABASE_URL (SQLite in the data dir)");
        s.strings("temp_key_command",
                  "prints 'Temp key: <key>'; default: python pasarguard-cli.py generate-temp-key in source_dir "
                  "(docker: via docker exec); same env and working dir as the panel");
        s.string("image", "docker mode: the panel's image").by_default(kImage);
        s.string("host", "the address the panel binds (UVICORN_HOST)").by_default("127.0.0.1");
        s.integer("port", "the panel's HTTP port (UVICORN_PORT)").range(1, 65535).by_default(8000);
        stand_panel_kit::declare_hysteria2_keys(
            s, "shadowsocks",
            "shadowsocks: users on the default core config's inbound Shadowsocks TCP; hysteria2: a core config of "
            "its own with Xray's hysteria inbound (version 2, TLS with a self-signed certificate made in <data "
            "dir>/tls, no obfuscation), a group on it, a host pinning the certificate (pinSHA256); tunnel_auth is "
            "the user's proxy_settings.hysteria.auth");
        declare_node_keys(s);
        stand_panel_kit::declare_credential_keys(s, "benchadmin", "the admin login",
                                                 "the admin password (to the panel's policy when generated)");
        return s;
    }();
    return spec;
}

}  // namespace stand_pasarguard
