// HAProxy's own `haproxy -c` on every config the haproxy plugin renders
// (Debian's haproxy): valid, and without a warning. The renderer itself:
// plugins/haproxy/tests/haproxy_config_test.cpp.
#include "haproxy_config.hpp"
#include "haproxy/tests/haproxy_settings.hpp"
#include "proxy_plugin_support.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

using namespace stand;
using stand_haproxy::HaproxySettings;
using stand_haproxy::render_haproxy_cfg;
using stand_haproxy::test::contains;
using stand_haproxy::test::origin;
using stand_haproxy::test::proxying;

namespace {

const char* const kHaproxy = "/usr/sbin/haproxy";

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("haproxy config: `haproxy -c` accepts every rendered variant without a warning") {
    if (!std::filesystem::exists(kHaproxy)) {
        MESSAGE("haproxy is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir dir;
    auto cert = test::make_cert(dir.path());
    std::ofstream(dir.path() / "tls.pem") << read_file(cert.cert) << read_file(cert.key);
    auto tls = [&](HaproxySettings s) {
        s.knobs.tls = true;
        s.tls_pem = (dir.path() / "tls.pem").string();
        return s;
    };
    auto with = [](HaproxySettings s, auto change) {
        change(s.knobs);
        return s;
    };
    using Knobs = stand_proxy_kit::ProxyKnobs;
    const std::pair<const char*, HaproxySettings> variants[] = {
        {"origin", origin()},
        {"pool unset", proxying(std::nullopt)},
        {"pool on", proxying(true)},
        {"pool off", proxying(false)},
        {"websocket", with(proxying(std::nullopt), [](Knobs& k) { k.websocket = true; })},
        {"max_connections", with(proxying(true), [](Knobs& k) { k.max_connections = 20000; })},
        {"IPv6 listener and upstream", with(proxying(true), [](Knobs& k) {
             k.listen_host = "::1";
             k.upstreams = {{"::1", 9000}};
         })},
        {"tls origin", tls(origin())},
        {"tls, pool off, websocket, 4 threads, maxconn",
         with(tls(proxying(false)), [](Knobs& k) {
             k.websocket = true;
             k.workers = 4;
             k.max_connections = 1000;
         })}};
    for (const auto& [name, settings] : variants) {
        CAPTURE(name);
        const auto file = dir.path() / "haproxy.cfg";
        std::ofstream(file) << render_haproxy_cfg(settings);
        std::string out;
        CHECK_MESSAGE(test::run_shell(std::string(kHaproxy) + " -c -f " + file.string(), out) == 0, out);
        CHECK_MESSAGE(!contains(out, "[WARNING]"), out);
    }
}
