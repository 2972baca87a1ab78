#include "hysteria2.hpp"

#include "tls/test_certificates.hpp"

#include <stand/stand.hpp>

namespace stand_panel_kit {

namespace json = boost::json;
using stand::cpp::ConfigError;

Hysteria2Choice read_hysteria2_choice(stand::cpp::ConfigReader& cfg, const std::string& default_protocol,
                                      const std::string& default_port_note) {
    Hysteria2Choice c;
    const std::string protocol = cfg.string("protocol", default_protocol);
    if (protocol == "hysteria2") c.enabled = true;
    else if (protocol != default_protocol)
        throw ConfigError("config.protocol: \"" + protocol + "\" (expected \"" + default_protocol + "\" or \"hysteria2\")");
    const std::string congestion = cfg.string("congestion", "default");
    if (congestion != "default" && congestion != "bbr" && congestion != "reno")
        throw ConfigError("config.congestion: \"" + congestion + "\" (expected \"default\", \"bbr\" or \"reno\")");
    if (congestion != "default" && !c.enabled) throw ConfigError("config.congestion: only for \"protocol\": \"hysteria2\"");
    if (congestion != "default") c.congestion = congestion;
    // 0: absent (the fallback is not range-checked)
    if (const auto port = cfg.integer("inbound_port", 0, 1, 65535); port != 0) {
        if (!c.enabled)
            throw ConfigError("config.inbound_port: only for \"protocol\": \"hysteria2\" (" + default_port_note + ")");
        c.inbound_port = static_cast<int>(port);
    }
    return c;
}

Hysteria2Certificate hysteria2_certificate(const std::string& panel, const std::filesystem::path& dir,
                                           const std::filesystem::path& seen_dir) {
    stand::tls::CertificateFiles files;
    std::string pin;
    try {
        files = stand::tls::ensure_test_certificate(dir, "p256");
        pin = stand::tls::certificate_sha256_hex(files.cert_file.string());
    } catch (const std::exception& e) {
        throw stand::cpp::Error(STAND_E_IO, panel + ": bootstrap: the Hysteria 2 certificate in " + dir.string() + ": " +
                                                e.what());
    }
    return {(seen_dir / files.cert_file.filename()).string(), (seen_dir / files.key_file.filename()).string(), pin};
}

json::object xray_hysteria2_inbound(const std::string& tag, int port, const Hysteria2Certificate& cert,
                                    const std::string& congestion) {
    json::object tls{{"alpn", json::array{"h3"}},
                     {"certificates", json::array{json::object{{"certificateFile", cert.cert_file},
                                                               {"keyFile", cert.key_file}}}}};
    json::object stream{{"network", "hysteria"},
                        {"security", "tls"},
                        {"hysteriaSettings", {{"version", 2}, {"udpIdleTimeout", 60}}},
                        {"tlsSettings", tls}};
    if (!congestion.empty()) stream["finalmask"] = json::object{{"quicParams", {{"congestion", congestion}}}};
    return {{"tag", tag},
            {"port", port},
            {"protocol", "hysteria"},
            {"settings", {{"version", 2}, {"clients", json::array{}}}},
            {"streamSettings", stream}};
}

}  // namespace stand_panel_kit
