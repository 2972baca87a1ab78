// The backend's .env, in the data dir (mode 0600), made once and kept until
// wipe (every issued token is signed with its APP_SECRET, and docker's
// database volume was made with its password): the variables the backend's
// config schema requires (src/common/config/app-config/config.schema.ts:
// APP_SECRET, FRONT_END_DOMAIN, SUB_PUBLIC_DOMAIN, METRICS_USER/PASS, the
// database and Redis) and, in docker mode, Postgres's own, as the official
// docker-compose-prod.yml reads it (env_file: .env for the backend and
// Postgres). In native mode the addresses (APP_PORT, DATABASE_URL,
// REDIS_HOST/PORT, SUB_PUBLIC_DOMAIN) come from the declared processes'
// environment instead, so only what is generated is here.
#pragma once

#include <filesystem>
#include <string>

namespace stand_remnawave {

struct EnvSettings {
    std::string panel_domain;       // host:port the API is published on
    std::string sub_public_domain;  // host[:port]/path, no scheme: subscriptionUrl = https://<this>/<shortUuid>
    bool docker = true;
};

// Writes `file` when it does not exist; returns true when it wrote it.
bool ensure_env_file(const std::filesystem::path& file, const EnvSettings& settings);

}  // namespace stand_remnawave
