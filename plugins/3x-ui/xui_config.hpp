// 3x-ui's config, declared once (the constructor reads it and the plugin's
// JSON Schema is written from it): the panel kit's launch and Hysteria 2
// keys and the panel's own.
#pragma once

#include "xui_deployment.hpp"
#include "xui_provision.hpp"

#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/launcher.hpp>
#include <stand/stand.hpp>

namespace stand_3x_ui {

inline constexpr const char* kInstalledBinary = "/usr/local/x-ui/x-ui";
inline constexpr const char* kImage = "ghcr.io/mhsanaei/3x-ui:v3.6.0";
inline constexpr int kXrayApiDefault = 62789;
inline constexpr int kXrayMetricsDefault = 11111;

const stand::cpp::ConfigSpec& config_spec();

// The config as the adapter uses it; throws ConfigError naming the field.
struct Options {
    stand_panel_kit::LaunchConfig launch;
    Settings settings;          // web_base_path starts and ends with '/'
    Provisioning provisioning;  // without the Hysteria 2 certificate and the log dir, which bootstrap makes
    std::string congestion, bin_folder;
    stand_panel_kit::Credentials given;
    int http_timeout_ms = 30000;
};
Options read_options(const boost::json::object& config);

}  // namespace stand_3x_ui
