#include "remnawave_deployment.hpp"

#include <stand/cpp/config_spec.hpp>
#include <stand/cpp/error.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

namespace stand_remnawave {

namespace fs = std::filesystem;
using stand_panel_kit::OnRestart;
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

std::vector<std::string> psql(const NativeSettings& s, const std::string& database) {
    return {s.postgres_bin + "/psql", "-h", "127.0.0.1", "-p", "${db_port}", "-U", "postgres", "-d", database, "-q",
            "-v", "ON_ERROR_STOP=1"};
}

// The database: a cluster of its own in <data dir>/postgres, on loopback.
std::vector<PanelProcess> database(const NativeSettings& s) {
    auto initdb = stand_panel_kit::step("initdb",
                                        {s.postgres_bin + "/initdb", "-D", "${data_dir}/postgres", "-U", "postgres",
                                         "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"},
                                        RunWhen::first_start);
    auto server = stand_panel_kit::service(
        "postgres", {s.postgres_bin + "/postgres", "-D", "${data_dir}/postgres", "-p", "${db_port}", "-k", "", "-c",
                     "listen_addresses=127.0.0.1", "-c", "timezone=UTC"});
    server.ready.command = {s.postgres_bin + "/pg_isready", "-q", "-h", "127.0.0.1", "-p", "${db_port}"};
    server.on_restart = OnRestart::persists;
    server.stop_signal = SIGINT;  // "fast" shutdown: what compose's stop does to postgres
    for (auto* p : {&initdb, &server}) {
        p->user = s.postgres_user;
        p->data = {"postgres"};
        p->working_dir = "${data_dir}/postgres";  // the user may not enter stand's
    }
    auto create = psql(s, "postgres");
    create.insert(create.end(), {"-c", "CREATE DATABASE remnawave"});
    return {initdb, server, stand_panel_kit::step("createdb", create, RunWhen::first_start)};
}

PanelProcess migrations(const NativeSettings& s) {
    if (s.migrations == "prisma") {
        auto deploy = stand_panel_kit::step("migrate", {s.node, "node_modules/prisma/build/index.js", "migrate", "deploy"},
                                            RunWhen::every_start);
        deploy.working_dir = s.source_dir;
        return deploy;
    }
    auto apply = psql(s, "remnawave");
    for (const auto& f : migration_files(s.source_dir)) apply.insert(apply.end(), {"-f", f});
    auto step = stand_panel_kit::step("migrate", apply, RunWhen::first_start);
    step.working_dir = s.source_dir;
    return step;
}

// What the backend's config schema reads that depends on the adapter's
// config (the secrets are in <data dir>/.env), and pm2's env_production.
std::map<std::string, std::string> app_env() {
    return {{"NODE_ENV", "production"}, {"APP_PORT", "${port}"}, {"METRICS_PORT", "${metrics_port}"},
            {"DATABASE_URL", "postgresql://postgres@127.0.0.1:${db_port}/remnawave"},
            {"REDIS_HOST", "127.0.0.1"}, {"REDIS_PORT", "${redis_port}"}, {"SUB_PUBLIC_DOMAIN", "${sub_public_domain}"}};
}

// A node program of the checkout, with the app env.
PanelProcess app(const NativeSettings& s, const std::string& name, const std::string& script, const char* instance) {
    PanelProcess p = stand_panel_kit::service(name, {s.node, script});
    p.working_dir = s.source_dir;
    p.env_file = "${data_dir}/.env";
    p.env = app_env();
    if (instance) p.env["INSTANCE_TYPE"] = instance;
    return p;
}

}  // namespace

std::vector<PanelProcess> native_processes(const NativeSettings& s) {
    std::vector<PanelProcess> all = database(s);
    auto redis = stand_panel_kit::service(
        "redis", {s.redis_server, "--port", "${redis_port}", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                  "--maxmemory-policy", "noeviction", "--loglevel", "warning", "--dir", "${data_dir}/redis"});
    redis.data = {"redis"};
    redis.ready.tcp = "127.0.0.1:${redis_port}";
    redis.on_restart = OnRestart::persists;
    all.push_back(redis);
    auto migrate = migrations(s);
    migrate.env = app_env();
    all.push_back(migrate);
    auto seed = app(s, "seed", "dist/seed.js", nullptr);
    seed.one_shot = true;
    all.push_back(seed);
    all.push_back(app(s, "api", "dist/app.js", "api"));
    all.push_back(app(s, "processor", "dist/processors.js", "processor"));
    all.push_back(app(s, "scheduler", "dist/scheduler.js", "scheduler"));
    return all;
}

}  // namespace stand_remnawave
