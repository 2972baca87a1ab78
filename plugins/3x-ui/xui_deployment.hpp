// How 3x-ui runs, as data. Native: the panel binary as the official install
// runs it (/usr/local/x-ui/x-ui, working directory its folder, Xray from its
// bin/ folder, the official unit's environment), its data and a bin folder
// of its own (links to Xray and the geo files: x-ui writes Xray's config.json
// there) in the data dir. Docker: compose with the pinned image, the box as
// cgroup parent, the ports published on the configured address only, the
// database in the volume <data dir>/db.
#pragma once

#include <stand/kits/panel/compose_file.hpp>
#include <stand/kits/panel/launcher.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace stand_3x_ui {

inline constexpr int kImagePanelPort = 2053;  // inside the container (x-ui's defaults)
inline constexpr int kImageSubPort = 2096;

struct Settings {
    std::string host, image, base_path;
    int port = 2053, sub_port = 2096, inbound_port = 4443;
    bool hysteria2 = false;
};

// native: completes `lc` (working dir, the XUI_* environment, the argv of
// `x-ui setting`) and returns the bin folder Xray comes from (`bin_folder`,
// else bin/ in the working dir); docker: refuses `bin_folder`.
// Throws ConfigError naming the field.
std::string deploy(stand_panel_kit::LaunchConfig& lc, const std::string& bin_folder);

stand_panel_kit::ComposeFile compose_file(const Settings& s);

// x-ui runs bin/xray-<GOOS>-<GOARCH> (internal/xray/process.go GetBinaryName).
std::string xray_binary_name();
// install(): Xray and geoip.dat are in `bin`; Error(STAND_E_NOT_FOUND) names the missing file.
void check_bin_folder(const std::filesystem::path& bin);
// Links every file of `source` into `own` (made), but config.json and what is there already.
void link_bin_folder(const std::filesystem::path& source, const std::filesystem::path& own);

}  // namespace stand_3x_ui
