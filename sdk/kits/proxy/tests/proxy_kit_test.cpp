// The proxy kit: the knobs, the key types of the test certificates, config
// files written privately. The nginx config writer checked by the real
// `nginx -t`: tests/unit/programs/nginx_check_test.cpp.
#include <stand/kits/proxy/cert_key_type.hpp>
#include <stand/kits/proxy/config_files.hpp>
#include <stand/kits/proxy/proxy_knobs.hpp>
#include "temp_dir.hpp"
#include "tls/test_certificates.hpp"

#include <doctest/doctest.h>

#include <stand/cpp/error.hpp>

#include <sys/stat.h>

#include <fstream>

using stand_proxy_kit::apply_proxy_knobs;
using stand_proxy_kit::ProxyKnobs;
namespace json = boost::json;

namespace {

ProxyKnobs knobs(const std::string& text, ProxyKnobs base = {}) {
    return apply_proxy_knobs(json::parse(text).as_object(), base);
}

std::string knob_error(const std::string& text) {
    try {
        knobs(text);
    } catch (const stand::cpp::Error& e) {
        return e.what();
    }
    return "(accepted)";
}

}  // namespace

TEST_CASE("proxy knobs: every knob read, the pool left to the proxy unless set") {
    auto k = knobs(R"({"listen":{"host":"127.0.0.1","port":8443,"tls":true},
                       "tls_key":{"cert_file":"/c.pem","key_file":"/k.pem"},
                       "upstreams":[{"host":"127.0.0.1","port":9000},{"port":9001}],
                       "websocket":true,"workers":2,"max_connections":100})");
    CHECK(k.listen_port == 8443);
    CHECK(k.tls);
    CHECK(k.cert_file == "/c.pem");
    REQUIRE(k.upstreams.size() == 2);
    CHECK(k.upstreams[1].host == "127.0.0.1");
    CHECK(k.upstreams[1].port == 9001);
    CHECK_FALSE(k.upstream_keepalive.has_value());
    CHECK(k.websocket);
    CHECK(k.workers == 2);
    CHECK(k.max_connections == 100);

    auto on = knobs(R"({"upstream_keepalive":true})", k);
    CHECK(on.upstream_keepalive == true);
    CHECK(on.listen_port == 8443);  // the rest kept
    CHECK_FALSE(knobs(R"({"upstream_keepalive":null,"max_connections":null})", on).upstream_keepalive.has_value());
    CHECK_FALSE(knobs(R"({"max_connections":null})", on).max_connections.has_value());
}

TEST_CASE("proxy knobs: errors name the knob") {
    CHECK(knob_error(R"({"listen":{"prot":1}})") == "knobs.listen.prot: unknown key");
    CHECK(knob_error(R"({"upstreams":[{"host":"127.0.0.1"}]})") == "knobs.upstreams[0].port: required (1-65535)");
    CHECK(knob_error(R"({"upstreams":[1]})") == "knobs.upstreams[0]: expected an object {host, port}");
    CHECK(knob_error(R"({"listen":{"tls":true}})") == "knobs.listen.tls: needs knobs.tls_key {cert_file, key_file}");
    CHECK(knob_error(R"({"tls_key":{"cert_file":"/c"}})") == "knobs.tls_key: needs both cert_file and key_file");
    CHECK(knob_error(R"({"upstream_keepalive":"yes"})") == "knobs.upstream_keepalive: expected true or false");
    CHECK(knob_error(R"({"workers":0})") == "knobs.workers: 0 is out of range [1, 64]");
    CHECK(knob_error(R"({"listen":{"host":"a b"}})") ==
          "knobs.listen.host: expected a host name or IP address (letters, digits, '.', '-', ':')");
    CHECK(knob_error(R"({"cache":true})") == "knobs.cache: unknown key");
}

TEST_CASE("test certificates: one per key type, key file private, key type read back") {
    stand::test::TempDir dir;
    for (const auto& [type, expected] : std::vector<std::pair<std::string, std::string>>{
             {"p256", "EC P-256"}, {"ed25519", "Ed25519"}, {"rsa2048", "RSA 2048"}}) {
        auto files = stand::tls::ensure_test_certificate(dir.path(), type);
        CHECK(stand_proxy_kit::cert_key_type(files.cert_file.string()) == expected);
        struct stat st {};
        REQUIRE(::stat(files.key_file.c_str(), &st) == 0);
        CHECK((st.st_mode & 0777) == 0600);
        const auto written = std::filesystem::last_write_time(files.cert_file);
        auto again = stand::tls::ensure_test_certificate(dir.path(), type);  // kept, not remade
        CHECK(std::filesystem::last_write_time(again.cert_file) == written);
    }
    CHECK_THROWS_WITH_AS(stand::tls::ensure_test_certificate(dir.path(), "rsa1024"),
                         doctest::Contains("unknown key type \"rsa1024\""), std::invalid_argument);
    CHECK_THROWS_WITH(stand_proxy_kit::cert_key_type((dir.path() / "none.crt").string()),
                      doctest::Contains("cannot open certificate"));
}

TEST_CASE("config files: key material is written 0600 even over a file that had another mode") {
    stand::test::TempDir dir;
    const auto pem = dir.path() / "tls.pem";
    std::ofstream(pem) << "old";
    REQUIRE(::chmod(pem.c_str(), 0644) == 0);
    stand_proxy_kit::write_file(pem, "cert and key", true, "haproxy");
    struct stat st {};
    REQUIRE(::stat(pem.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK(stand_proxy_kit::read_file(pem, "knobs.tls_key.cert_file", "haproxy") == "cert and key");
    CHECK_THROWS_WITH(stand_proxy_kit::read_file(dir.path() / "none.pem", "knobs.tls_key.key_file", "haproxy"),
                      doctest::Contains("haproxy: cannot read knobs.tls_key.key_file "));
    CHECK_THROWS_WITH(stand_proxy_kit::write_file(dir.path() / "no" / "dir.cfg", "x", false, "nginx"),
                      doctest::Contains("nginx: cannot create "));
}
