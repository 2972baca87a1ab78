// What a data dir needs before x-ui's first start there, applied the ways
// x-ui offers: its own `x-ui setting` command for the panel's port, listen
// address, web base path and admin account; and, because x-ui has no flag or
// environment variable for them, the subscription server's port and listen
// address as rows of its settings table (what the panel's settings page
// writes). Nothing is applied once the database exists.
#pragma once

#include "xui_deployment.hpp"

#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/launcher.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace stand_3x_ui {

struct FirstStartSettings {
    int port = 2053;
    std::string listen;  // "" = all interfaces (inside a container)
    std::string web_base_path = "/";
    std::string username, password;
    int sub_port = 2096;
    std::string sub_listen;
};

// Runs `setting_command + [-port ... -listenIP ...]` through the launcher
// (same environment and working directory as the panel), then writes the
// subscription rows into `db`. Returns false when `db` existed already.
// Throws stand::cpp::Error naming the step that failed; past `timeout_ms` the
// command and everything it started are killed and the error names it.
bool apply_first_start_settings(stand_panel_kit::Launcher& launcher, const std::vector<std::string>& setting_command,
                                const FirstStartSettings& settings, const std::filesystem::path& db, int timeout_ms);

// What a data dir gets before x-ui's first start there (nothing once its
// database exists). Native: a log folder, a bin folder of its own (links to
// the installed Xray and data files, since x-ui writes Xray's config.json
// into XUI_BIN_FOLDER), then the settings. Docker: the container's ports and
// all its interfaces (the compose file publishes them on the host), the
// database in the volume <data dir>/db, `x-ui setting` in a one-off
// container (the compose file is written first).
void prepare_first_start(stand_panel_kit::Launcher& launcher, const std::vector<std::string>& setting_command,
                         const Settings& settings, const stand_panel_kit::Credentials& admin,
                         const std::filesystem::path& data_dir, bool docker);

// Sets rows of x-ui's key/value settings table (replacing rows with the same key).
void write_setting_rows(const std::filesystem::path& db, const std::vector<std::pair<std::string, std::string>>& rows);

}  // namespace stand_3x_ui
