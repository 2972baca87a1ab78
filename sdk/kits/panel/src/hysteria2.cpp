#include <stand/kits/panel/hysteria2.hpp>

#include "tls/test_certificates.hpp"

#include <stand/stand.hpp>

namespace stand_panel_kit {

namespace json = boost::json;
using stand::cpp::ConfigError;

void declare_hysteria2_keys(stand::cpp::ConfigSpec& spec, const std::string& default_protocol,
                            const std::string& protocol_note) {
    spec.choice("protocol", {default_protocol, "hysteria2"}, protocol_note).by_default(default_protocol);
    spec.choice("congestion", {"default", "bbr", "reno"},
                "hysteria2: Xray's congestion control (finalmask.quicParams.congestion); default: Xray's own")
        .by_default("default");
    spec.integer("inbound_port", "hysteria2 only: the inbound's UDP port on the nodes, and the links' port; default " +
                                     std::to_string(kDefaultInboundPort))
        .range(1, 65535);
}

Hysteria2Choice read_hysteria2_choice(stand::cpp::ConfigValues& cfg, const std::string& default_port_note) {
    Hysteria2Choice c;
    c.enabled = cfg.string("protocol") == "hysteria2";
    const std::string congestion = cfg.string("congestion");
    if (congestion != "default" && !c.enabled) throw ConfigError("config.congestion: only for \"protocol\": \"hysteria2\"");
    if (congestion != "default") c.congestion = congestion;
    const auto port = cfg.optional_integer("inbound_port");
    if (port && !c.enabled)
        throw ConfigError("config.inbound_port: only for \"protocol\": \"hysteria2\" (" + default_port_note + ")");
    c.inbound_port = static_cast<int>(port.value_or(kDefaultInboundPort));
    return c;
}

void add_hysteria2_facts(json::object& facts, const Hysteria2Choice& c, const std::string& default_protocol) {
    facts["protocol"] = c.enabled ? "hysteria2" : default_protocol;
    if (!c.enabled) return;
    facts["congestion"] = c.congestion.empty() ? "default" : c.congestion;
    facts["inbound_port"] = c.inbound_port;
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
                                    const std::string& congestion, const std::string& listen) {
    json::object tls{{"alpn", json::array{"h3"}},
                     {"certificates", json::array{json::object{{"certificateFile", cert.cert_file},
                                                               {"keyFile", cert.key_file}}}}};
    json::object stream{{"network", "hysteria"},
                        {"security", "tls"},
                        {"hysteriaSettings", {{"version", 2}, {"udpIdleTimeout", 60}}},
                        {"tlsSettings", tls}};
    if (!congestion.empty()) stream["finalmask"] = json::object{{"quicParams", {{"congestion", congestion}}}};
    json::object inbound{{"tag", tag},
                         {"port", port},
                         {"protocol", "hysteria"},
                         {"settings", {{"version", 2}, {"clients", json::array{}}}},
                         {"streamSettings", stream}};
    if (!listen.empty()) inbound["listen"] = listen;
    return inbound;
}

}  // namespace stand_panel_kit
