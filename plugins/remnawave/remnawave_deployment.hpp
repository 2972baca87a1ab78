// How Remnawave runs, as data. Docker: the official docker-compose-prod.yml
// (backend 3.3.2: the backend, postgres:18.4, valkey/valkey:9-alpine on a
// shared socket), with the box as cgroup parent, the API published on the
// configured address only, the project's own volume names. Native: the same
// parts as declared processes in the box, the database in the data dir:
// PostgreSQL (initdb and the database once per data dir) and Redis as the
// panel kit declares them (companions.hpp, on loopback TCP), the
// migrations, the seeder and pm2's three apps (ecosystem.config.js: api,
// processors, scheduler), as the image's docker-entrypoint.sh runs them.
#pragma once

#include <stand/kits/panel/companions.hpp>
#include <stand/kits/panel/compose_file.hpp>
#include <stand/kits/panel/launcher.hpp>
#include <stand/kits/panel/panel_process.hpp>

#include <string>
#include <vector>

namespace stand_remnawave {

// docker-compose-prod.yml of backend 3.3.2 names these; the backend is pinned to the release read here.
inline constexpr const char* kImage = "remnawave/backend:3.3.2";
inline constexpr const char* kDbImage = "postgres:18.4";
inline constexpr const char* kRedisImage = "valkey/valkey:9-alpine";
// docker: where the backend container sees <data dir>/tls (it reads the
// certificate files when it sends a profile to a node).
inline constexpr const char* kContainerTls = "/var/lib/stand-tls";

struct DockerSettings {
    std::string image, host;
    int port = 3000;
    bool mount_tls = false;  // Hysteria 2: the core's certificate
};
stand_panel_kit::ComposeFile compose_file(const DockerSettings& s);

struct NativeSettings {
    std::string source_dir;    // the backend's checkout, built (dist/, prisma/, node_modules/)
    std::string node;          // Node.js (engines: >= 24.18)
    std::string postgres_bin;  // initdb, postgres, pg_isready, psql
    std::string postgres_user;
    std::string redis_server;
    std::string migrations;    // "prisma" (the image's migrate deploy, every start) or "psql" (once per data dir)
};
// Native mode: with `own_command`, what the backend's config schema reads
// for the command (a stand-in); else the declared processes (config.env
// added to each). Returns whether processes were declared. Throws
// ConfigError when neither a command nor a source_dir is given.
bool deploy_native(stand_panel_kit::LaunchConfig& lc, const NativeSettings& s, bool own_command);

// In start order; ${port}, ${metrics_port}, ${db_port}, ${redis_port},
// ${sub_public_domain} and ${data_dir} are the launcher's variables.
std::vector<stand_panel_kit::PanelProcess> native_processes(const NativeSettings& s);
// The migrations the psql mode applies, in order (the folders' names sort by date).
std::vector<std::string> migration_files(const std::string& source_dir);
// What install() checks of a native checkout: the build's four programs and
// the migrations; Error(STAND_E_NOT_FOUND) names the first file missing.
void check_build(const NativeSettings& s);

}  // namespace stand_remnawave
