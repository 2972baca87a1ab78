#include "remnawave_node.hpp"

#include <stand/cpp/error.hpp>
#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/file_text.hpp>

#include <filesystem>
#include <fstream>

namespace stand_remnawave {

namespace fs = std::filesystem;
using stand_panel_kit::OnRestart;
using stand_panel_kit::PanelProcess;

namespace {

constexpr const char* kEnvFile = "${data_dir}/node.env";
constexpr const char* kServiceDir = "${data_dir}/node/xray";

// The image's ENV lines, and where the paths it names are here.
void image_env(PanelProcess& p, const NodeSettings& s) {
    p.env = {{"NODE_ENV", "production"},
             {"NODE_OPTIONS", "--max-http-header-size=65536"},
             {"UV_THREADPOOL_SIZE", "24"},
             {"XRAY_JSON_STRICT", "true"},
             {"NODE_PORT", std::to_string(s.port)},
             {"RW_ROOT", s.root},
             {"XRAY_S6_SERVICE_DIR", kServiceDir}};
    p.env_file = kEnvFile;
    p.on_restart = OnRestart::persists;  // `docker restart` of the backend leaves the node's container
    p.autostart = false;                 // it needs the backend's SECRET_KEY
}

}  // namespace

stand_panel_kit::ComposeService node_compose_service(const std::string& image, int port) {
    auto node = stand_panel_kit::compose_service(kNodeService, image, "stand_remnawave_node");
    node.hostname = "remnanode";
    node.network_mode = "host";
    node.cap_add = {"NET_ADMIN"};
    node.nofile = 1048576;
    node.env_file = kEnvFile;
    node.environment = {{"NODE_PORT", std::to_string(port)}};
    node.profiles = {kNodeProfile};
    return node;
}

std::vector<PanelProcess> node_processes(const NodeSettings& s) {
    auto xray = stand_panel_kit::service(kXrayProcess, {s.s6_supervise, kServiceDir});
    image_env(xray, s);
    xray.data = {"node"};
    // The node exits at once when s6's control fifo is missing.
    xray.ready.command = {"test", "-p", std::string(kServiceDir) + "/supervise/control"};
    auto node = stand_panel_kit::service(kNodeProcess, {s.node, "dist/main.js"});
    image_env(node, s);
    node.working_dir = s.source_dir;
    node.ready.tcp = "127.0.0.1:" + std::to_string(s.port);
    return {xray, node};
}

void write_xray_service(const fs::path& dir) {
    fs::create_directories(dir);
    // docker/rootfs/etc/s6-overlay/s6-rc.d/xray/run of the node at 3.3.2, with
    // RW_ROOT; Xray logs the config's URL at start, its token is kept out of the log.
    const fs::path run = dir / "run";
    std::ofstream(run) << "#!/bin/bash\n"
                          "exec > >(exec sed -u 's/token=[^ }\"]*/token=<redacted>/g') 2>&1\n"
                          "exec \"$RW_ROOT/usr/local/bin/rw-core\" \\\n"
                          "    -config @\"${INTERNAL_SOCKET_PATH}\":/internal/get-config?token=\"${INTERNAL_REST_TOKEN}\" \\\n"
                          "    -format json\n";
    fs::permissions(run, fs::perms::owner_all);
    std::ofstream(dir / "down").flush();
    if (!fs::is_regular_file(run))
        throw stand::cpp::Error(STAND_E_IO, "remnawave: cannot write the node's Xray service " + run.string());
}

void write_node_env(const fs::path& file, const std::string& secret_key, bool native) {
    std::string text = "SECRET_KEY=" + secret_key + "\n";
    if (native) {
        const std::string token = stand_panel_kit::random_hex(32);
        const std::string suffix = stand_panel_kit::random_hex(5);
        text += "INTERNAL_REST_TOKEN=" + token + "\n";
        text += "INTERNAL_SOCKET_PATH=rwint-" + suffix + "\n";
        text += "XTLS_API_SOCKET_PATH=xtls-api-" + suffix + "\n";
    }
    stand_panel_kit::write_private_file(file, text);
}

std::string node_env_secret_key(const fs::path& file) {
    std::error_code ec;
    if (!fs::exists(file, ec)) return "";
    const auto env = stand_panel_kit::read_env_file(file, "remnawave: the node's env");
    const auto* key = env.if_contains("SECRET_KEY");
    return key && key->is_string() ? std::string(key->as_string()) : "";
}

void check_node_build(const NodeSettings& s) {
    std::error_code ec;
    const auto missing = [](const fs::path& f, const std::string& what) {
        return stand::cpp::Error(STAND_E_NOT_FOUND, "remnawave: install: " + f.string() + " is missing: " + what +
                                                        " (tests/real-panels/prepare_remnawave_node.sh)");
    };
    if (s.source_dir.empty())
        throw stand::cpp::ConfigError("config.node_source_dir: native mode runs a node built from source with run_node");
    if (!fs::is_regular_file(fs::path(s.source_dir) / "dist/main.js", ec))
        throw missing(fs::path(s.source_dir) / "dist/main.js", "config.node_source_dir must be the node's checkout, built");
    for (const char* f : {"usr/local/bin/rw-core", "command/s6-svc", "command/s6-svstat"})
        if (!fs::exists(fs::path(s.root) / f, ec))
            throw missing(fs::path(s.root) / f, "config.node_root must hold the image's paths");
}

}  // namespace stand_remnawave
