// 3x-ui (MHSanaei/3x-ui; checked on the real v3.6.0 + Xray), on the panel
// kit: the panel binary as the official install runs it, or docker compose
// (xui_deployment.hpp); before the first start the data dir gets the
// configured port, listen address, base path, admin account and subscription
// server (xui_first_start.hpp); bootstrap moves Xray's ports and adds one
// inbound (xui_provision.hpp). Users are clients with a credential and a subId
// the adapter chooses, so no read-back is needed; the subscription is on the
// separate sub port.
#include "xui_api.hpp"
#include "xui_config.hpp"
#include "xui_deployment.hpp"
#include "xui_first_start.hpp"
#include "xui_provision.hpp"

#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/hysteria2.hpp>
#include <stand/kits/panel/panel_plugin.hpp>
#include <stand/kits/panel/url.hpp>

#include <map>
#include <memory>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;
using namespace stand_3x_ui;

class Xui : public stand_panel_kit::PanelPlugin {
public:
    Xui(const stand::cpp::Host& host, const json::object& config)
        : PanelPlugin(host, "3x-ui"), o_(read_options(config)), s_(o_.settings), p_(o_.provisioning) {
        auto lc = o_.launch;
        if (s_.base_path != "/") PanelPlugin::host().mark_secret(s_.base_path);  // x-ui's secret web base path
        bin_folder_ = deploy(lc, o_.bin_folder);
        if (!p_.docker) setting_command_ = lc.command;
        if (!p_.docker) setting_command_.emplace_back("setting");
        lc.project = "stand3xui";
        lc.container = "stand_3xui";
        launch(std::move(lc), {{"port", std::to_string(s_.port)}, {"sub_port", std::to_string(s_.sub_port)},
                               {"listen", s_.host}, {"bin_folder", bin_folder_}},
               p_.docker ? "the docker CLI runs image " + s_.image
                         : std::string("3x-ui's install.sh puts the panel in ") + kInstalledBinary + "; or set config.command to the x-ui binary");
        for (const char* f : {"", "geoip.dat", "geosite.dat"})
            if (!p_.docker) launcher().add_artifact("${bin_folder}/" + (*f ? std::string(f) : xray_binary_name()));
        launcher().set_compose(compose_file(s_));
        // The image's entrypoint starts the panel whatever its arguments, so `x-ui setting` runs in a one-off
        // container with x-ui as entrypoint, on the same database volume.
        if (p_.docker) setting_command_ = launcher().compose_argv({"run", "--rm", "--entrypoint", "/app/x-ui", "x-ui", "setting"});
    }

    json::object readiness() override {
        // The panel page, then the subscription server and Xray (its API port): x-ui answers GET / before either is up.
        json::array also{json::object{{"tcp", s_.host + ":" + std::to_string(s_.sub_port)}}};
        if (!p_.docker) also.push_back(json::object{{"tcp", "127.0.0.1:" + std::to_string(current_xray_api_port())}});
        return {{"method", "GET"}, {"url", panel_url() + s_.base_path}, {"expect_status", json::array{200}},
                {"per_try_timeout_ms", 2000}, {"also", also}};
    }

private:
    void install_hook() override {
        if (p_.docker) return check_docker_images({s_.image});
        check_bin_folder(launcher().expand("${bin_folder}"));
        const std::string v = launcher().run_capture({launcher().config().command.front(), "-v"}, "x-ui -v", 30000);
        version_ = v.substr(0, v.find_last_not_of(" \r\n") + 1);
        prepare_data_dir();
    }

    void start_hook() override { prepare_data_dir(); }
    void restart_hook() override { api_.reset(); }  // the next admin call logs in again

    void wipe_hook() override {
        users_.clear();
        done_.reset();
        api_.reset();
    }

    json::object facts_hook() override {
        json::object f{{"listen", s_.host}, {"protocol", s_.hysteria2 ? "hysteria2" : "vless-reality"}};
        if (done_) f["client_api"] = done_->client_api == ClientApi::v31 ? "clients/* (v3.1+)" : "inbounds/addClient (legacy)";
        if (s_.hysteria2) f["congestion"] = o_.congestion;
        if (p_.allow_private && !p_.docker)
            f["xray_template_change"] = "removed the rule geoip:private -> blocked, freedom allows 127.0.0.0/8 and ::1: stand's sink is on loopback";
        if (s_.base_path != "/") f["secret_path_prefix"] = s_.base_path;
        if (!version_.empty()) f["versions"] = json::object{{"3x-ui", version_}};
        if (p_.docker) f["image"] = s_.image;
        if (p_.docker) return f;
        f["xray_api_port"] = current_xray_api_port();
        f["bin_folder"] = launcher().expand("${bin_folder}");
        f["xui_bin_folder"] = (data_dir() / "bin").string();
        return f;
    }

    void bootstrap_hook() override {
        if (s_.hysteria2) {
            // The core's certificate in the data dir (docker: the volume, as the container sees it), pinned in the links.
            const fs::path dir = p_.docker ? data_dir() / "db" / "tls" : data_dir() / "tls";
            const auto c = stand_panel_kit::hysteria2_certificate("3x-ui", dir, p_.docker ? fs::path("/etc/x-ui/tls") : dir);
            p_.hysteria2 = Hysteria2Inbound{c.cert_file, c.key_file, c.pin_sha256, o_.congestion == "default" ? "" : o_.congestion};
        }
        p_.log_dir = (data_dir() / "log").string();
        done_ = stand_3x_ui::provision(session(), p_, [this] { remember_xray_api_port(data_dir(), p_.xray_api_port); });
    }

    json::object create_user_hook(const std::string& name) override {
        // Hysteria 2: 32 hex, what x-ui's fillProtocolDefaults would choose.
        const std::string credential = s_.hysteria2 ? stand_panel_kit::random_hex(16) : stand_panel_kit::random_uuid();
        XuiUser user{name, credential, stand_panel_kit::random_hex(8)};
        session().add_client(done_->client_api, p_.protocol, done_->inbound_id, user);
        users_[name] = user;
        return {{"name", name}, {"id", name}, {"subscription", subscription(user.sub_id)}, {"tunnel_auth", credential}};
    }

    void delete_user_hook(const std::string& id) override {
        session().delete_client(done_->client_api, done_->inbound_id, id);
        users_.erase(id);
    }

    void admin_call_hook() override {
        session().list_inbounds(done_->client_api);
    }

    void set_user_enabled_hook(const std::string& id, bool enabled) override {
        session_v31("set_user_enabled").set_client_enabled(id, enabled);
    }

    void set_user_quota_hook(const std::string& id, std::uint64_t quota_bytes) override {
        session_v31("set_user_quota").set_client_quota(id, quota_bytes);
    }

    json::object user_traffic_hook(const std::string& id) override { return session_v31("user_traffic").client_traffic(id); }

    // What x-ui v3.6.0's own pages poll while open (frontend/src): the overview's
    // server status every 2 s (api/queries/useStatusQuery.ts), the clients
    // page's first 25 clients every 5 s (hooks/useClients.ts); a browser's own login.
    std::vector<stand_panel_kit::DashboardRequest> dashboard_requests_hook() override {
        const std::string base = admin_url();
        const auto headers = signed_in()->browser_headers();
        std::vector<stand_panel_kit::DashboardRequest> polled{
            {"overview", "server_status", 2, "GET", base + "/panel/api/server/status", headers, ""}};
        if (done_->client_api == ClientApi::v31)
            polled.push_back({"clients", "clients_page", 5, "GET", base + "/panel/api/clients/list/paged?page=1&pageSize=25",
                              headers, ""});
        return polled;
    }

    json::object subscription_request_hook(const std::string& id) override {
        if (auto it = users_.find(id); it != users_.end()) return subscription(it->second.sub_id);
        if (done_->client_api == ClientApi::v31) return subscription(session().client_sub_id(id));
        throw Error(STAND_E_NOT_FOUND, "3x-ui: no user '" + id + "' created by this instance");
    }

    void prepare_data_dir() {
        const auto c = stand_panel_kit::load_or_create_credentials(host(), credentials_file(), o_.given);
        prepare_first_start(launcher(), setting_command_, s_, {c.username, c.password}, data_dir(), p_.docker);
    }

    int current_xray_api_port() const { return remembered_xray_api_port(data_dir()); }

    std::string panel_url() const { return "http://" + s_.host + ":" + std::to_string(s_.port); }

    XuiApi& session_v31(const char* call) {
        if (done_->client_api != ClientApi::v31)
            throw Error(STAND_E_UNSUPPORTED, std::string("3x-ui: ") + call +
                                                 ": not with the client API before v3.1 (inbounds/addClient)");
        return session();
    }

    XuiApi& session() {
        if (!api_) api_ = signed_in();
        return *api_;
    }

    // A session of its own, logged in.
    std::unique_ptr<XuiApi> signed_in() {
        const auto c = stand_panel_kit::load_or_create_credentials(host(), credentials_file(), o_.given);
        auto api = std::make_unique<XuiApi>(host(), admin_url(), c.username, c.password, o_.http_timeout_ms);
        api->login();
        return api;
    }

    std::string admin_url() const { return panel_url() + s_.base_path.substr(0, s_.base_path.size() - 1); }

    json::object subscription(const std::string& sub_id) const {
        return stand_panel_kit::subscription_get(stand_panel_kit::resolve_url(panel_url() + "/", done_->sub_base + sub_id));
    }

    Options o_;
    Settings& s_;
    Provisioning& p_;
    std::string bin_folder_, version_;
    std::vector<std::string> setting_command_;
    std::unique_ptr<XuiApi> api_;
    std::optional<Provisioned> done_;
    std::map<std::string, XuiUser> users_;
};

}  // namespace

STAND_CPP_PLUGIN(Xui, "3x-ui", "3x-ui", "0.3.0",
                 "3x-ui panel (checked on the real v3.6.0 + Xray): native as the official install runs it, or docker "
                 "compose, in the measured box; VLESS Reality or Hysteria 2 users.",
                 stand_3x_ui::config_spec())
