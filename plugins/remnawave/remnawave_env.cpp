#include "remnawave_env.hpp"

#include <stand/kits/panel/credentials.hpp>

namespace stand_remnawave {

bool ensure_env_file(const std::filesystem::path& file, const EnvSettings& s) {
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) return false;
    std::string text;
    text += "API_INSTANCES=1\n";
    text += "APP_SECRET=" + stand_panel_kit::random_hex(64) + "\n";
    text += "IS_TELEGRAM_NOTIFICATIONS_ENABLED=false\n";
    text += "WEBHOOK_ENABLED=false\n";
    text += "PANEL_DOMAIN=" + s.panel_domain + "\n";
    text += "FRONT_END_DOMAIN=*\n";  // CORS only; the .env.sample value
    text += "METRICS_USER=stand-metrics\n";
    text += "METRICS_PASS=" + stand_panel_kit::random_hex(16) + "\n";
    if (s.docker) {
        const std::string db_password = stand_panel_kit::random_hex(24);
        text += "APP_PORT=3000\n";
        text += "METRICS_PORT=3001\n";
        // The compose file's service names: Postgres on the project network, Valkey on the shared socket volume.
        text += "DATABASE_URL=postgresql://postgres:" + db_password + "@remnawave-db:5432/postgres\n";
        text += "REDIS_SOCKET=/var/run/valkey/valkey.sock\n";
        text += "SUB_PUBLIC_DOMAIN=" + s.sub_public_domain + "\n";
        text += "POSTGRES_USER=postgres\n";
        text += "POSTGRES_PASSWORD=" + db_password + "\n";
        text += "POSTGRES_DB=postgres\n";
    }
    stand_panel_kit::write_private_file(file, text);
    return true;
}

}  // namespace stand_remnawave
