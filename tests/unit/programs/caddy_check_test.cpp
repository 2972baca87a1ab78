// Caddy 2.6's own `caddy validate` on every config the caddy plugin renders
// (Debian's caddy), and on one naming a missing certificate. The renderer
// itself: plugins/caddy/tests/caddy_config_test.cpp.
#include "caddy_config.hpp"
#include "caddy/tests/caddy_settings.hpp"
#include "proxy_plugin_support.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

using namespace stand;
namespace json = boost::json;
using stand_caddy::CaddySettings;
using stand_caddy::test::origin;
using stand_caddy::test::proxying;

namespace {

const char* const kCaddy = "/usr/bin/caddy";

// Runs `caddy validate` on `config`; returns its exit code, output in `log`.
int caddy_validate(const std::filesystem::path& dir, const json::object& config, std::string& log) {
    auto file = dir / "validate.json";
    std::ofstream(file) << json::serialize(config);
    return test::run_shell(std::string(kCaddy) + " validate --config " + file.string() + " --adapter ''", log);
}

}  // namespace

TEST_CASE("caddy validate accepts every rendered variant and refuses a missing certificate") {
    if (!std::filesystem::exists(kCaddy)) {
        MESSAGE("caddy is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir dir;
    auto cert = test::make_cert(dir.path());
    for (auto keepalive : {std::optional<bool>{}, std::optional<bool>{true}, std::optional<bool>{false}}) {
        for (bool tls : {false, true}) {
            for (bool is_origin : {false, true}) {
                auto s = proxying(keepalive);
                if (is_origin) s.knobs.upstreams.clear();
                s.knobs.tls = tls;
                s.knobs.websocket = tls;  // no effect on the config; validated anyway
                s.knobs.cert_file = cert.cert;
                s.knobs.key_file = cert.key;
                std::string log;
                CAPTURE(keepalive.has_value());
                CAPTURE(keepalive.value_or(false));
                CAPTURE(tls);
                CAPTURE(is_origin);
                auto config = stand_caddy::render_caddy_config(s, dir.path().string());
                CHECK_MESSAGE(caddy_validate(dir.path(), config, log) == 0, log);
            }
        }
    }
    CaddySettings missing = origin();
    missing.knobs.tls = true;
    missing.knobs.cert_file = (dir.path() / "nope.pem").string();
    missing.knobs.key_file = cert.key;
    std::string log;
    CHECK(caddy_validate(dir.path(), stand_caddy::render_caddy_config(missing, dir.path().string()), log) != 0);
    CHECK_MESSAGE(log.find("nope.pem: no such file or directory") != std::string::npos, log);
}
