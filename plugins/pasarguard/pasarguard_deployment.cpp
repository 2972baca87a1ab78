#include "pasarguard_deployment.hpp"

#include <stand/cpp/error.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

namespace stand_pasarguard {

namespace fs = std::filesystem;
using stand::cpp::ConfigError;
using stand::cpp::Error;

stand_panel_kit::ComposeFile compose_file(const std::string& image, const std::string& host, int port) {
    auto panel = stand_panel_kit::compose_service("pasarguard", image, kContainer);
    panel.network_mode = "host";
    panel.environment = {{"UVICORN_HOST", host},
                         {"UVICORN_PORT", std::to_string(port)},
                         {"SQLALCHEMY_DATABASE_URL", std::string("sqlite+aiosqlite:///") + kContainerDataDir + "/db.sqlite3"}};
    panel.volumes = {std::string("${data_dir}:") + kContainerDataDir};
    return {{panel}, {}};
}

namespace {

std::vector<stand_panel_kit::PanelProcess> native_processes(const std::string& python, const std::string& source_dir,
                                                            const std::map<std::string, std::string>& env) {
    // start.sh (the image's entrypoint) runs these before main.py; the systemd unit leaves them to `make run-migration`.
    auto migrate = stand_panel_kit::step("migrate", {python, "-m", "alembic", "upgrade", "head"},
                                         stand_panel_kit::RunWhen::every_start);
    auto panel = stand_panel_kit::service("panel", {python, "main.py"});
    for (auto* p : {&migrate, &panel}) {
        p->working_dir = source_dir;
        p->env = env;
    }
    return {migrate, panel};
}

Deployment native(stand_panel_kit::LaunchConfig& lc, const Settings& s) {
    if (!s.python.empty() && s.source_dir.empty())
        throw ConfigError("config.python: needs config.source_dir (the checkout the interpreter runs main.py from)");
    if (!s.own_command && s.source_dir.empty())
        throw ConfigError("config.source_dir: native mode runs PasarGuard from its source: give the checkout's folder "
                          "(where `uv sync` made .venv/bin/python3), or config.command; or use \"mode\": \"docker\"");
    std::map<std::string, std::string> env{{"UVICORN_HOST", "${listen}"},
                                           {"UVICORN_PORT", "${port}"},
                                           {"SQLALCHEMY_DATABASE_URL", "sqlite+aiosqlite:///${data_dir}/db.sqlite3"}};
    for (const auto& [k, v] : lc.env) env[k] = v;
    lc.env = env;
    if (lc.working_dir.empty()) lc.working_dir = s.source_dir;
    if (s.source_dir.empty()) return {"", s.temp_key_command.empty() ? std::vector<std::string>{"pasarguard-cli", "generate-temp-key"} : s.temp_key_command};
    Deployment d{s.python.empty() ? (fs::path(s.source_dir) / kVenvPython).string() : s.python, s.temp_key_command};
    if (d.temp_key_command.empty()) d.temp_key_command = {d.python, "pasarguard-cli.py", "generate-temp-key"};
    if (!s.own_command) lc.processes = native_processes(d.python, lc.working_dir, lc.env);
    return d;
}

}  // namespace

Deployment deploy(stand_panel_kit::LaunchConfig& lc, const Settings& s) {
    if (lc.mode != stand_panel_kit::RunMode::docker) return native(lc, s);
    if (!s.source_dir.empty() || !s.python.empty())
        throw ConfigError(std::string("config.") + (s.source_dir.empty() ? "python" : "source_dir") +
                          ": only for native mode (the image " + s.image + " holds the panel)");
    if (!s.temp_key_command.empty()) return {"", s.temp_key_command};
    return {"", {lc.docker, "exec", kContainer, "pasarguard-cli", "generate-temp-key"}};
}

std::string source_version(const std::string& source_dir) {
    std::ifstream in(fs::path(source_dir) / "pyproject.toml");
    std::smatch m;
    for (std::string line; std::getline(in, line);)
        if (std::regex_match(line, m, std::regex(R"(\s*version\s*=\s*"([^"]+)\"\s*)"))) return m[1].str();
    return {};
}

void check_source(const std::string& source_dir) {
    const fs::path src = source_dir;
    std::error_code ec;
    for (const char* f : {"main.py", "pasarguard-cli.py", "alembic.ini"})
        if (!fs::is_regular_file(src / f, ec))
            throw Error(STAND_E_NOT_FOUND, std::string("pasarguard: install: ") + (src / f).string() +
                                               " is missing: config.source_dir must be PasarGuard's checkout");
    // dashboard/__init__.py runs `bun run build` at start-up when the build is missing.
    if (!fs::is_regular_file(src / "dashboard/build/index.html", ec))
        throw Error(STAND_E_NOT_FOUND, "pasarguard: install: " + (src / "dashboard/build/index.html").string() +
                                           " is missing: build the dashboard (`bun run build` in dashboard/) "
                                           "before the first start, or the panel tries at start-up");
}

}  // namespace stand_pasarguard
