#include "remnawave_deployment.hpp"

#include <stand/cpp/config_spec.hpp>
#include <stand/cpp/error.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

namespace stand_remnawave {

namespace fs = std::filesystem;
using stand_panel_kit::PanelProcess;
using stand_panel_kit::RunWhen;

stand_panel_kit::ComposeFile compose_file(const DockerSettings& s) {
    constexpr long kNofile = 1048576;
    auto backend = stand_panel_kit::compose_service("remnawave", s.image, "stand_remnawave");
    backend.hostname = "remnawave";
    backend.nofile = kNofile;
    backend.env_file = "${data_dir}/.env";
    backend.volumes = {"valkey-socket:/var/run/valkey"};
    if (s.mount_tls) backend.volumes.push_back(std::string("${data_dir}/tls:") + kContainerTls + ":ro");
    backend.ports = {s.host + ":" + std::to_string(s.port) + ":3000"};
    backend.healthcheck = {{"CMD-SHELL", "curl -f http://localhost:3001/health"}, "30s", "5s", "30s", 3};
    backend.depends_on = {{"remnawave-db", "service_healthy"}, {"remnawave-redis", "service_healthy"}};
    auto db = stand_panel_kit::compose_service("remnawave-db", kDbImage, "stand_remnawave_db");
    db.hostname = "remnawave-db";
    db.shm_size = "512mb";
    db.nofile = kNofile;
    db.env_file = "${data_dir}/.env";
    db.environment = {{"TZ", "UTC"}};
    db.volumes = {"remnawave-db-data:/var/lib/postgresql"};
    db.healthcheck = {{"CMD-SHELL", "pg_isready -U $${POSTGRES_USER} -d $${POSTGRES_DB}"}, "3s", "10s", "", 3};
    auto redis = stand_panel_kit::compose_service("remnawave-redis", kRedisImage, "stand_remnawave_redis");
    redis.hostname = "remnawave-redis";
    redis.nofile = kNofile;
    redis.volumes = {"valkey-socket:/var/run/valkey"};
    redis.command = {"valkey-server", "--save", "", "--appendonly", "no", "--maxmemory-policy", "noeviction",
                     "--loglevel", "warning", "--unixsocket", "/var/run/valkey/valkey.sock", "--unixsocketperm", "777",
                     "--port", "0"};
    redis.healthcheck = {{"CMD", "valkey-cli", "-s", "/var/run/valkey/valkey.sock", "ping"}, "3s", "3s", "", 3};
    return {{backend, db, redis}, {"remnawave-db-data", "valkey-socket"}};
}

std::vector<std::string> migration_files(const std::string& source_dir) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& dir : fs::directory_iterator(fs::path(source_dir) / "prisma" / "migrations", ec))
        if (fs::is_regular_file(dir.path() / "migration.sql", ec)) files.push_back((dir.path() / "migration.sql").string());
    std::sort(files.begin(), files.end());
    return files;
}

bool deploy_native(stand_panel_kit::LaunchConfig& lc, const NativeSettings& s, bool own_command) {
    if (own_command) {
        lc.env.insert({{"APP_PORT", "${port}"}, {"SUB_PUBLIC_DOMAIN", "${sub_public_domain}"}});
        return false;
    }
    if (s.source_dir.empty())
        throw stand::cpp::ConfigError("config.source_dir: native mode runs a backend built from source (Remnawave's "
                                      "documented install is its docker compose, \"mode\": \"docker\"); or give "
                                      "config.command");
    lc.processes = native_processes(s);
    for (auto& p : lc.processes)
        for (const auto& [k, v] : lc.env) p.env[k] = v;
    return true;
}

void check_build(const NativeSettings& s) {
    const fs::path src = s.source_dir;
    std::error_code ec;
    for (const char* f : {"dist/app.js", "dist/processors.js", "dist/scheduler.js", "dist/seed.js"})
        if (!fs::is_regular_file(src / f, ec))
            throw stand::cpp::Error(STAND_E_NOT_FOUND, "remnawave: install: " + (src / f).string() +
                                                           " is missing: config.source_dir must be the backend's checkout, "
                                                           "built (tests/real-panels/prepare_remnawave.sh)");
    if (migration_files(s.source_dir).empty())
        throw stand::cpp::Error(STAND_E_NOT_FOUND, "remnawave: install: no migration in " +
                                                       (src / "prisma/migrations").string());
}

namespace {

using stand_panel_kit::Companion;

// The database and the cache, declared by the panel kit (companions.hpp),
// each in a folder of the data dir and on loopback TCP, not on the kit's
// default unix sockets: the backend's config takes REDIS_HOST and REDIS_PORT
// (its compose's socket is a docker volume), and its DATABASE_URL a host.
stand_panel_kit::PostgresqlOptions database(const NativeSettings& s) {
    return {.database = "remnawave", .tcp = "127.0.0.1:${db_port}", .bin_dir = s.postgres_bin,
            .user = s.postgres_user, .settings = {"timezone=UTC"}};
}

stand_panel_kit::RedisOptions cache(const NativeSettings& s) {
    return {.tcp = "127.0.0.1:${redis_port}", .server = s.redis_server};
}

PanelProcess migrations(const NativeSettings& s, const Companion& db) {
    if (s.migrations == "prisma") {
        auto deploy = stand_panel_kit::step("migrate", {s.node, "node_modules/prisma/build/index.js", "migrate", "deploy"},
                                            RunWhen::every_start);
        deploy.working_dir = s.source_dir;
        return deploy;
    }
    auto apply = db.client;
    for (const auto& f : migration_files(s.source_dir)) apply.insert(apply.end(), {"-f", f});
    auto step = stand_panel_kit::step("migrate", apply, RunWhen::first_start);
    step.working_dir = s.source_dir;
    return step;
}

// What the backend's config schema reads that depends on the adapter's
// config (the secrets are in <data dir>/.env), and pm2's env_production.
std::map<std::string, std::string> app_env(const Companion& db, const Companion& redis) {
    return {{"NODE_ENV", "production"}, {"APP_PORT", "${port}"}, {"METRICS_PORT", "${metrics_port}"},
            {"DATABASE_URL", db.url}, {"REDIS_HOST", redis.host}, {"REDIS_PORT", redis.port},
            {"SUB_PUBLIC_DOMAIN", "${sub_public_domain}"}};
}

// A node program of the checkout, with the app env.
PanelProcess app(const NativeSettings& s, const std::map<std::string, std::string>& env, const std::string& name,
                 const std::string& script, const char* instance) {
    PanelProcess p = stand_panel_kit::service(name, {s.node, script});
    p.working_dir = s.source_dir;
    p.env_file = "${data_dir}/.env";
    p.env = env;
    if (instance) p.env["INSTANCE_TYPE"] = instance;
    return p;
}

}  // namespace

std::vector<PanelProcess> native_processes(const NativeSettings& s) {
    std::vector<PanelProcess> all;
    const auto db = stand_panel_kit::add_postgresql(all, database(s));
    const auto redis = stand_panel_kit::add_redis(all, cache(s));
    const auto env = app_env(db, redis);
    auto migrate = migrations(s, db);
    migrate.env = env;
    all.push_back(migrate);
    auto seed = app(s, env, "seed", "dist/seed.js", nullptr);
    seed.one_shot = true;
    all.push_back(seed);
    all.push_back(app(s, env, "api", "dist/app.js", "api"));
    all.push_back(app(s, env, "processor", "dist/processors.js", "processor"));
    all.push_back(app(s, env, "scheduler", "dist/scheduler.js", "scheduler"));
    return all;
}

}  // namespace stand_remnawave
