// The 3x-ui admin API as the adapter uses it (facts: tests/doubles/README.md
// and the 3x-ui reference): cookie login with CSRF (v3.0+), the legacy
// inbounds/addClient client API (<= v3.0) or clients/* (v3.1+), every answer
// HTTP 200 with {success, msg, obj}.
#pragma once

#include "admin_api.hpp"

#include <optional>
#include <string>

namespace xui {

enum class ClientApi { legacy, v31 };

struct XuiUser {
    std::string email;
    std::string uuid;
    std::string sub_id;
};

class XuiApi {
public:
    XuiApi(const stand::cpp::Host& host, const std::string& base_url, std::string username, std::string password,
           int timeout_ms = 30000);

    void login();                       // csrf-token (when the panel has it), POST login, csrf again
    ClientApi detect_client_api();      // GET panel/api/clients/list: 200 -> v3.1, 404 -> legacy
    // The id of the inbound with `remark`, or none.
    std::optional<long long> find_inbound(const std::string& remark);
    long long add_vless_reality_inbound(const std::string& remark, int port);
    struct SubSettings {
        std::string path = "/sub/";
        int port = 2096;
        std::string uri;  // subURI when set
    };
    SubSettings sub_settings();
    void add_client(ClientApi api, long long inbound_id, const XuiUser& user);
    void delete_client(ClientApi api, long long inbound_id, const std::string& email);
    // panel/api/inbounds/list(/slim); re-logs in once when the session is gone.
    void list_inbounds(ClientApi api);
    // v3.1: the subId of a client, read back (after a restart of the adapter).
    std::string client_sub_id(const std::string& email);

private:
    boost::json::value envelope(const std::string& operation, boost::json::object request);
    void fetch_csrf();

    panelkit::AdminApi api_;
    std::string username_, password_;
    bool csrf_ = false;
};

}  // namespace xui
