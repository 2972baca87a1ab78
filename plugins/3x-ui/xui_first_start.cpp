#include "xui_first_start.hpp"

#include <stand/kits/panel/admin_api.hpp>

#include <stand/stand.hpp>

#include <sqlite3.h>

#include <memory>

namespace stand_3x_ui {

namespace fs = std::filesystem;
using stand::cpp::Error;

namespace {

struct DbCloser {
    void operator()(sqlite3* db) const { sqlite3_close(db); }
};

std::string sqlite_error(sqlite3* db, const fs::path& path, const std::string& what) {
    return "3x-ui: " + what + " in " + path.string() + ": " + (db ? sqlite3_errmsg(db) : "out of memory");
}

}  // namespace

void write_setting_rows(const fs::path& path, const std::vector<std::pair<std::string, std::string>>& rows) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE, nullptr);
    std::unique_ptr<sqlite3, DbCloser> db(raw);
    if (rc != SQLITE_OK) throw Error(STAND_E_IO, sqlite_error(raw, path, "cannot open x-ui's database"));
    sqlite3_busy_timeout(raw, 5000);
    auto exec = [&](const char* sql) {
        if (sqlite3_exec(raw, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
            throw Error(STAND_E_IO, sqlite_error(raw, path, std::string("'") + sql + "' failed"));
    };
    exec("BEGIN IMMEDIATE");
    for (const auto& [key, value] : rows) {
        for (const char* sql : {"DELETE FROM settings WHERE key = ?1", "INSERT INTO settings(key, value) VALUES (?1, ?2)"}) {
            sqlite3_stmt* stmt = nullptr;
            if (sqlite3_prepare_v2(raw, sql, -1, &stmt, nullptr) != SQLITE_OK)
                throw Error(STAND_E_IO, sqlite_error(raw, path, "x-ui's settings table is not as expected"));
            sqlite3_bind_text(stmt, 1, key.c_str(), -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(stmt, 2, value.c_str(), -1, SQLITE_TRANSIENT);
            const int step = sqlite3_step(stmt);
            sqlite3_finalize(stmt);
            if (step != SQLITE_DONE) throw Error(STAND_E_IO, sqlite_error(raw, path, "cannot set " + key));
        }
    }
    exec("COMMIT");
}

bool apply_first_start_settings(stand_panel_kit::Launcher& launcher, const std::vector<std::string>& setting_command,
                                const FirstStartSettings& s, const fs::path& db, int timeout_ms) {
    std::error_code ec;
    if (fs::exists(db, ec)) return false;
    auto argv = setting_command;
    for (const std::string& a : {std::string("-port"), std::to_string(s.port), std::string("-webBasePath"), s.web_base_path,
                                 std::string("-username"), s.username, std::string("-password"), s.password})
        argv.push_back(a);
    if (!s.listen.empty()) {
        argv.emplace_back("-listenIP");
        argv.push_back(s.listen);
    }
    const std::string out = launcher.run_capture(argv, "x-ui setting (first start)", timeout_ms);
    // `x-ui setting` reports a failed setting on stdout and still exits 0.
    if (auto at = out.find("Failed"); at != std::string::npos)
        throw Error(STAND_E_IO, "3x-ui: x-ui setting (first start) failed: " + out.substr(at, out.find('\n', at) - at));
    if (!fs::exists(db, ec))
        throw Error(STAND_E_IO, "3x-ui: x-ui setting (first start) ran but wrote no " + db.string() +
                                    " (x-ui's database folder must be there: XUI_DB_FOLDER natively, the /etc/x-ui volume in docker mode): " + stand_panel_kit::excerpt(out));
    write_setting_rows(db, {{"subPort", std::to_string(s.sub_port)}, {"subListen", s.sub_listen}});
    return true;
}

void prepare_first_start(stand_panel_kit::Launcher& launcher, const std::vector<std::string>& setting_command,
                         const Settings& s, const stand_panel_kit::Credentials& admin, const fs::path& data_dir,
                         bool docker) {
    if (docker) {
        fs::create_directories(data_dir / "db");
        launcher.write_compose_file();
        const FirstStartSettings f{kImagePanelPort, "", s.base_path, admin.username, admin.password, kImageSubPort, ""};
        // A one-off container may start slowly; natively `x-ui setting` writes a database in about a second.
        apply_first_start_settings(launcher, setting_command, f, data_dir / "db" / "x-ui.db", 120000);
        return;
    }
    fs::create_directories(data_dir / "log");
    link_bin_folder(launcher.expand("${bin_folder}"), data_dir / "bin");
    const FirstStartSettings f{s.port, s.host, s.base_path, admin.username, admin.password, s.sub_port, s.host};
    apply_first_start_settings(launcher, setting_command, f, data_dir / "x-ui.db", 30000);
}

}  // namespace stand_3x_ui
