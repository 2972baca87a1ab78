// The backend's .env for docker mode, as the official docker-compose-prod.yml
// reads it (env_file: .env for the backend and Postgres): the variables
// the backend's config schema requires (src/common/config/app-config/
// config.schema.ts: DATABASE_URL, APP_SECRET, FRONT_END_DOMAIN,
// SUB_PUBLIC_DOMAIN, METRICS_USER/PASS, REDIS_SOCKET) and Postgres's own.
// Secrets are generated once; the file is written with mode 0600 and kept
// until wipe, since the database volume was made with its password and every
// issued token is signed with its APP_SECRET.
#pragma once

#include <filesystem>
#include <string>

namespace stand_remnawave {

struct EnvSettings {
    std::string panel_domain;       // host:port the API is published on
    std::string sub_public_domain;  // host[:port]/path, no scheme: subscriptionUrl = https://<this>/<shortUuid>
};

// Writes `file` when it does not exist; returns true when it wrote it.
bool ensure_env_file(const std::filesystem::path& file, const EnvSettings& settings);

}  // namespace stand_remnawave
