// The 3x-ui admin API as the adapter uses it (facts: tests/doubles/README.md
// and the 3x-ui reference): cookie login with CSRF (v3.0+), the legacy
// inbounds/addClient client API (<= v3.0) or clients/* (v3.1+), every answer
// HTTP 200 with {success, msg, obj}.
#pragma once

#include <stand/kits/panel/admin_api.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace stand_3x_ui {

enum class ClientApi { legacy, v31 };

// The inbound users join: VLESS Reality (TCP), or Hysteria 2 (UDP, Xray's
// `hysteria` protocol with version 2).
enum class Protocol { vless_reality, hysteria2 };

struct XuiUser {
    std::string email;
    std::string credential;  // VLESS: the client id (a UUID); Hysteria 2: its auth
    std::string sub_id;
};

// A Hysteria 2 inbound as the 3x-ui reference (A4) and its UI write it: TLS
// with the certificate files given, ALPN h3, no salamander obfuscation;
// `pin_sha256` goes into tlsSettings.settings.pinnedPeerCertSha256, which x-ui
// keeps from Xray and puts into the links' pinSHA256. `congestion` empty keeps
// Xray's default; else finalmask.quicParams.congestion ("bbr", "reno").
struct Hysteria2Inbound {
    std::string cert_file, key_file, pin_sha256, congestion;
};

class XuiApi {
public:
    XuiApi(const stand::cpp::Host& host, const std::string& base_url, std::string username, std::string password,
           int timeout_ms = 30000);

    void login();                       // csrf-token (when the panel has it), POST login, csrf again
    // What this session's browser sends with each admin request after its
    // login: the session cookie x-ui set and the CSRF token (when it has one).
    boost::json::object browser_headers() const;
    ClientApi detect_client_api();      // GET panel/api/clients/list: 200 -> v3.1, 404 -> legacy
    // The id of the inbound with `remark`, or none.
    std::optional<long long> find_inbound(const std::string& remark);
    // `listen` is the address Xray binds for the inbound ("" = all interfaces).
    long long add_vless_reality_inbound(const std::string& remark, const std::string& listen, int port);
    long long add_hysteria2_inbound(const std::string& remark, const std::string& listen, int port,
                                    const Hysteria2Inbound& hy2);
    struct SubSettings {
        std::string path = "/sub/";
        int port = 2096;
        std::string uri;  // subURI when set
    };
    SubSettings sub_settings();
    // Moves the Xray template's API inbound and metrics listener off x-ui's
    // fixed defaults (127.0.0.1:62789 and :11111, the same for every
    // instance); metrics_port 0 removes the metrics listener. allow_private
    // lets proxied connections reach loopback (where a tunnel's sink is): it
    // removes the default rule that routes geoip:private to "blocked" and
    // gives freedom outbounds a final rule allowing 127.0.0.0/8 and ::1
    // (Xray's freedom blocks private targets itself). x-ui restarts Xray when the
    // template changes. Returns whether it changed.
    bool adjust_xray_template(int api_port, int metrics_port, bool allow_private);
    void add_client(ClientApi api, Protocol protocol, long long inbound_id, const XuiUser& user);
    void delete_client(ClientApi api, long long inbound_id, const std::string& email);
    // panel/api/inbounds/list(/slim); re-logs in once when the session is gone.
    void list_inbounds(ClientApi api);
    // v3.1: the subId of a client, read back (after a restart of the adapter).
    std::string client_sub_id(const std::string& email);
    // v3.1 (the legacy API has none of these three here): the client's enable
    // switch (clients/bulkEnable, bulkDisable); its traffic quota (totalGB,
    // which 3x-ui counts in bytes despite its name; 0 for none), the client
    // read back and updated whole; its traffic as x-ui last collected it from
    // Xray (every 5 s): {"up_bytes", "down_bytes", "total_bytes"}. Each throws
    // Error(STAND_E_NOT_FOUND) for an unknown email.
    void set_client_enabled(const std::string& email, bool enabled);
    void set_client_quota(const std::string& email, std::uint64_t bytes);
    boost::json::object client_traffic(const std::string& email);

private:
    long long add_inbound(const boost::json::object& body);
    boost::json::value envelope(const std::string& operation, boost::json::object request);
    void fetch_csrf();
    void remember_cookie(const stand_panel_kit::Reply& reply);
    // Where the settings and Xray routes live: "/panel/api/" from v3.3.0,
    // "/panel/" before (v3.0.0-v3.2.8). Found once, with a route every v3 has
    // telling a missing route from a lost session (both answer 404).
    const std::string& settings_prefix();

    std::string settings_prefix_;

    stand_panel_kit::AdminApi api_;
    std::string username_, password_;
    std::string cookie_;  // "name=value" of the last session cookie x-ui set
    bool csrf_ = false;
};

}  // namespace stand_3x_ui
