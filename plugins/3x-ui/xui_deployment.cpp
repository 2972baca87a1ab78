#include "xui_deployment.hpp"

#include <stand/cpp/config_spec.hpp>
#include <stand/cpp/error.hpp>

#include <sys/utsname.h>

#include <map>

namespace stand_3x_ui {

namespace fs = std::filesystem;
using stand::cpp::ConfigError;
using stand::cpp::Error;

std::string deploy(stand_panel_kit::LaunchConfig& lc, const std::string& bin_folder) {
    if (lc.mode == stand_panel_kit::RunMode::docker) {
        if (!bin_folder.empty()) throw ConfigError("config.bin_folder: only for native mode (the image holds Xray)");
        return {};
    }
    // The official unit: WorkingDirectory=/usr/local/x-ui/, and x-ui finds
    // Xray in XUI_BIN_FOLDER, else bin/ below its working directory.
    if (lc.working_dir.empty() && lc.command.front().find('/') != std::string::npos)
        lc.working_dir = fs::path(lc.command.front()).parent_path().string();
    std::map<std::string, std::string> env{{"XUI_DB_FOLDER", "${data_dir}"},
                                           {"XUI_LOG_FOLDER", "${data_dir}/log"},
                                           {"XUI_BIN_FOLDER", "${data_dir}/bin"},
                                           {"XRAY_VMESS_AEAD_FORCED", "false"}};
    for (const auto& [k, v] : lc.env) env[k] = v;
    lc.env = env;
    if (!bin_folder.empty()) return bin_folder;
    return lc.working_dir.empty() ? std::string("bin") : (fs::path(lc.working_dir) / "bin").string();
}

stand_panel_kit::ComposeFile compose_file(const Settings& s) {
    auto xui = stand_panel_kit::compose_service("x-ui", s.image, "stand_3xui");
    xui.tty = true;
    xui.cap_add = {"NET_ADMIN", "NET_RAW"};
    xui.environment = {{"XRAY_VMESS_AEAD_FORCED", "false"}, {"XUI_ENABLE_FAIL2BAN", "false"},
                       {"XUI_INIT_WEB_BASE_PATH", s.base_path}};
    const std::string bind = s.host + ":";
    xui.ports = {bind + std::to_string(s.port) + ":" + std::to_string(kImagePanelPort),
                 bind + std::to_string(s.sub_port) + ":" + std::to_string(kImageSubPort),
                 bind + std::to_string(s.inbound_port) + ":" + std::to_string(s.inbound_port) + (s.hysteria2 ? "/udp" : "")};
    xui.volumes = {"${data_dir}/db:/etc/x-ui"};
    return {{xui}, {}};
}

std::string xray_binary_name() {
    utsname u{};
    std::string arch = uname(&u) == 0 ? u.machine : "x86_64";
    if (arch == "x86_64") arch = "amd64";
    else if (arch == "aarch64") arch = "arm64";
    return "xray-linux-" + arch;
}

void check_bin_folder(const fs::path& bin) {
    std::error_code ec;
    const fs::path xray = bin / xray_binary_name();
    if (!fs::is_regular_file(xray, ec))
        throw Error(STAND_E_NOT_FOUND, "3x-ui: install: Xray is missing: " + xray.string() +
                                           " (x-ui runs Xray from XUI_BIN_FOLDER: config.bin_folder, default bin/ "
                                           "beside x-ui, where the official install puts it)");
    if (!fs::is_regular_file(bin / "geoip.dat", ec))
        throw Error(STAND_E_NOT_FOUND, "3x-ui: install: " + (bin / "geoip.dat").string() +
                                           " is missing: x-ui's default Xray template routes geoip:private");
}

void link_bin_folder(const fs::path& source, const fs::path& own) {
    fs::create_directories(own);
    for (const auto& entry : fs::directory_iterator(fs::absolute(source))) {
        const auto name = entry.path().filename();
        std::error_code ec;
        if (name == "config.json" || !entry.is_regular_file(ec) || fs::exists(fs::symlink_status(own / name, ec))) continue;
        fs::create_symlink(entry.path(), own / name, ec);
        if (ec)
            throw Error(STAND_E_IO, "3x-ui: cannot link " + (own / name).string() + " to " + entry.path().string() + ": " +
                                        ec.message());
    }
}

}  // namespace stand_3x_ui
