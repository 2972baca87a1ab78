// How PasarGuard runs, as data. Docker: compose with the pinned image, host
// network, SQLite in the data dir (mounted at /var/lib/pasarguard), the box
// as cgroup parent. Native: the panel from its source as install_service.sh
// runs it (the checkout's .venv/bin/python3 main.py, working directory the
// checkout), after the migrations its image's start.sh runs (`alembic
// upgrade head`), both declared processes in the box. Either way UVICORN_HOST
// and UVICORN_PORT bind only the configured address.
#pragma once

#include <stand/kits/panel/compose_file.hpp>
#include <stand/kits/panel/launcher.hpp>
#include <stand/kits/panel/panel_process.hpp>

#include <map>
#include <string>
#include <vector>

namespace stand_pasarguard {

inline constexpr const char* kImage = "pasarguard/panel:v5.2.1";
inline constexpr const char* kContainer = "stand_pasarguard";
inline constexpr const char* kContainerDataDir = "/var/lib/pasarguard";  // the data dir inside the container
// install_service.sh: ExecStart=$PWD/.venv/bin/python3 $PWD/main.py, WorkingDirectory=$PWD.
inline constexpr const char* kVenvPython = ".venv/bin/python3";

stand_panel_kit::ComposeFile compose_file(const std::string& image, const std::string& host, int port);

struct Settings {
    std::string image, source_dir, python;
    std::vector<std::string> temp_key_command;  // empty: the mode's default
    bool own_command = false;                   // config.command given: a stand-in that behaves like the panel
};
struct Deployment {
    std::string python;                         // the interpreter of the checkout ("" without one)
    std::vector<std::string> temp_key_command;  // prints "Temp key: <key>"
};
// Completes `lc` for its mode: native, the panel's environment (what the
// compose file gives the image: bind only the configured address, SQLite in
// the data dir) and working directory, and its processes (the migrations,
// then the panel) unless a command was given. Throws ConfigError naming the
// field a mode cannot take.
Deployment deploy(stand_panel_kit::LaunchConfig& lc, const Settings& s);

// version = "..." of the checkout's pyproject.toml, "" when unreadable.
std::string source_version(const std::string& source_dir);

// install(): the checkout has what the panel runs; Error(STAND_E_NOT_FOUND) names the first file missing.
void check_source(const std::string& source_dir);

}  // namespace stand_pasarguard
