// Hysteria 2 in the panel adapters whose core is Xray (the panel kit's
// hysteria2.hpp, used by Remnawave and PasarGuard): the config option, the
// certificate and its pin, the Xray inbound. The links those panels write for
// it, read by stand's Hysteria 2 client: tests/unit/hysteria/panel_links_test.cpp.
#include <stand/kits/panel/hysteria2.hpp>
#include "tls/test_certificates.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <unistd.h>

namespace json = boost::json;

namespace {

stand_panel_kit::Hysteria2Choice choice(const json::object& config, const std::string& default_protocol = "shadowsocks") {
    stand::cpp::ConfigSpec spec;
    stand_panel_kit::declare_hysteria2_keys(spec, default_protocol, "the inbound users join");
    auto cfg = spec.read(config);
    auto c = stand_panel_kit::read_hysteria2_choice(cfg, "Shadowsocks TCP keeps its port");
    cfg.finish();
    return c;
}

std::string config_error(const json::object& config) {
    try {
        choice(config);
    } catch (const stand::cpp::ConfigError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("panel hysteria2: the protocol, congestion and inbound_port options") {
    CHECK_FALSE(choice({}).enabled);
    CHECK_FALSE(choice({{"protocol", "shadowsocks"}}).enabled);
    auto hy2 = choice({{"protocol", "hysteria2"}});
    CHECK(hy2.enabled);
    CHECK(hy2.congestion.empty());  // Xray's own
    CHECK(choice({{"protocol", "hysteria2"}, {"congestion", "default"}}).congestion.empty());
    CHECK(choice({{"protocol", "hysteria2"}, {"congestion", "bbr"}}).congestion == "bbr");
    CHECK(choice({{"protocol", "hysteria2"}, {"congestion", "reno"}}).congestion == "reno");
    CHECK(config_error({{"protocol", "vless"}}) ==
          "config.protocol: \"vless\" (expected \"shadowsocks\" or \"hysteria2\")");
    CHECK(config_error({{"protocol", "hysteria2"}, {"congestion", "cubic"}}) ==
          "config.congestion: \"cubic\" (expected \"default\", \"bbr\" or \"reno\")");
    CHECK(config_error({{"congestion", "bbr"}}) == "config.congestion: only for \"protocol\": \"hysteria2\"");
    CHECK(hy2.inbound_port == 4443);
    CHECK(choice({{"protocol", "hysteria2"}, {"inbound_port", 27501}}).inbound_port == 27501);
    CHECK(config_error({{"inbound_port", 27501}}) ==
          "config.inbound_port: only for \"protocol\": \"hysteria2\" (Shadowsocks TCP keeps its port)");
    CHECK(config_error({{"protocol", "hysteria2"}, {"inbound_port", 0}}) == "config.inbound_port: 0 is out of range [1, 65535]");
}

TEST_CASE("panel hysteria2: the certificate is made once in the data dir and pinned by its SHA-256") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("stand-panel-hy2-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    auto first = stand_panel_kit::hysteria2_certificate("remnawave", dir / "tls", dir / "tls");
    CHECK(first.cert_file == (dir / "tls" / "p256.crt").string());
    CHECK(first.key_file == (dir / "tls" / "p256.key").string());
    CHECK(first.pin_sha256 == stand::tls::certificate_sha256_hex(first.cert_file));
    CHECK(first.pin_sha256.size() == 64);
    // the same files again (a second bootstrap), named as a container sees them
    auto seen = stand_panel_kit::hysteria2_certificate("pasarguard", dir / "tls", "/var/lib/pasarguard/tls");
    CHECK(seen.pin_sha256 == first.pin_sha256);
    CHECK(seen.cert_file == "/var/lib/pasarguard/tls/p256.crt");
    CHECK(seen.key_file == "/var/lib/pasarguard/tls/p256.key");
    fs::remove_all(dir);
    // a folder that cannot be made names the panel and the folder
    try {
        stand_panel_kit::hysteria2_certificate("remnawave", "/proc/stand-no/tls", "/proc/stand-no/tls");
        FAIL("no error");
    } catch (const stand::cpp::Error& e) {
        CHECK(std::string(e.what()).find("remnawave: bootstrap: the Hysteria 2 certificate in /proc/stand-no/tls") == 0);
    }
}

TEST_CASE("panel hysteria2: Xray's hysteria inbound, version 2, TLS, no obfuscation") {
    const stand_panel_kit::Hysteria2Certificate cert{"/d/tls/p256.crt", "/d/tls/p256.key", std::string(64, 'a')};
    auto in = stand_panel_kit::xray_hysteria2_inbound("stand-hysteria2", 4443, cert, "");
    CHECK(in.at("tag") == "stand-hysteria2");
    CHECK(in.at("port") == 4443);
    CHECK(in.at("protocol") == "hysteria");
    CHECK(in.at("settings") == json::object{{"version", 2}, {"clients", json::array{}}});
    CHECK_FALSE(in.contains("listen"));
    const auto& stream = in.at("streamSettings").as_object();
    CHECK(stream.at("network") == "hysteria");
    CHECK(stream.at("security") == "tls");
    CHECK(stream.at("hysteriaSettings").at("version") == 2);
    CHECK(stream.at("tlsSettings").at("alpn") == json::array{"h3"});
    CHECK(stream.at("tlsSettings").at("certificates") ==
          json::array{json::object{{"certificateFile", cert.cert_file}, {"keyFile", cert.key_file}}});
    CHECK_FALSE(stream.contains("finalmask"));  // no salamander, Xray's own congestion control
    auto bbr = stand_panel_kit::xray_hysteria2_inbound("t", 1, cert, "bbr");
    CHECK(bbr.at("streamSettings").at("finalmask") == json::object{{"quicParams", {{"congestion", "bbr"}}}});
    CHECK(stand_panel_kit::xray_hysteria2_inbound("t", 1, cert, "", "127.0.0.1").at("listen") == "127.0.0.1");
}
