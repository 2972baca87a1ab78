// Hysteria 2 in the panels whose core is Xray (Remnawave's config profiles,
// PasarGuard's core configs): the adapters' config options, the core's
// self-signed certificate and the Xray inbound, so each adapter offers the
// same option as the 3x-ui adapter (plugins/3x-ui/README.md, "Hysteria 2").
#pragma once

#include <stand/stand.hpp>

#include <boost/json.hpp>

#include <filesystem>
#include <string>

namespace stand_panel_kit {

// The users' inbound port when the config names none.
inline constexpr int kDefaultInboundPort = 4443;

// Declares config.protocol (`default_protocol` or "hysteria2", described by
// `protocol_note`), config.congestion ("default", "bbr", "reno"; only with
// hysteria2) and config.inbound_port, for hysteria2 only: no declared
// default (giving it with the default protocol is an error), its description
// says hysteria2 uses kDefaultInboundPort. An adapter whose inbound port is
// for every protocol refines it: spec.key("inbound_port").describe(...)
// .by_default(kDefaultInboundPort).
void declare_hysteria2_keys(stand::cpp::ConfigSpec& spec, const std::string& default_protocol,
                            const std::string& protocol_note);

// Reads them (declared for hysteria2 only), the inbound port only with
// hysteria2 (`default_port_note` says why the default protocol takes none).
// Throws ConfigError naming the field.
struct Hysteria2Choice {
    bool enabled = false;
    std::string congestion;  // "" keeps Xray's default
    int inbound_port = 0;
};
Hysteria2Choice read_hysteria2_choice(stand::cpp::ConfigValues& cfg, const std::string& default_port_note);
// facts(): "protocol" (`default_protocol` or "hysteria2") and, with
// hysteria2, "congestion" ("default" for Xray's) and "inbound_port".
void add_hysteria2_facts(boost::json::object& facts, const Hysteria2Choice& choice, const std::string& default_protocol);

// The core's certificate: a self-signed P-256 certificate made (once) in
// `dir` (stand::tls::ensure_test_certificate), its files named as the panel
// sees them (`seen_dir`: the same folder, or its path inside a container),
// and the SHA-256 of its DER in hex, what a hysteria2:// link's pinSHA256
// names. Throws stand::cpp::Error naming the panel and the folder.
struct Hysteria2Certificate {
    std::string cert_file, key_file, pin_sha256;
};
Hysteria2Certificate hysteria2_certificate(const std::string& panel, const std::filesystem::path& dir,
                                           const std::filesystem::path& seen_dir);

// The subject names of that certificate (tls/test_certificates.hpp): the
// SNI its links name.
inline constexpr const char* kHysteria2ServerName = "localhost";

// Xray's `hysteria` inbound, version 2: TLS with ALPN h3 and the certificate
// files, no salamander obfuscation; a congestion other than "" goes into
// streamSettings.finalmask.quicParams.congestion. `listen` "" leaves the
// key out (Xray binds every interface: a node elsewhere); else the inbound
// binds that address (a node the adapter runs in the box).
boost::json::object xray_hysteria2_inbound(const std::string& tag, int port, const Hysteria2Certificate& cert,
                                           const std::string& congestion, const std::string& listen = "");

}  // namespace stand_panel_kit
