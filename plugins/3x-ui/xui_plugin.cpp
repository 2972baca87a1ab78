// 3x-ui (MHSanaei/3x-ui): the panel binary (or anything that behaves like
// it) spawned into the box, or docker compose with the box as cgroup parent
// (stand.lifecycle/1 + stand.panel/1). One VLESS Reality inbound; users are
// clients with an id and a subId the adapter chooses, so no read-back is
// needed; the subscription is on the separate sub port.
#include "credentials.hpp"
#include "launcher.hpp"
#include "url.hpp"
#include "xui_api.hpp"

#include <stand/stand.hpp>

#include <filesystem>
#include <map>
#include <memory>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::ConfigError;
using stand::cpp::Error;

constexpr const char* kRemark = "stand-vless-reality";

std::string uuid4() {
    std::string h = panelkit::random_hex(16);
    h[12] = '4';
    h[16] = "89ab"[h[16] % 4];
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

class Xui : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Panel {
public:
    Xui(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigReader cfg(config);
        auto launch = panelkit::read_launch_config(cfg, {"x-ui"});
        host_name_ = cfg.string("host", "127.0.0.1");
        port_ = static_cast<int>(cfg.integer("port", 2053, 1, 65535));
        sub_port_ = static_cast<int>(cfg.integer("sub_port", 2096, 1, 65535));
        base_path_ = cfg.string("web_base_path", "/");
        if (base_path_.empty() || base_path_.front() != '/') base_path_ = "/" + base_path_;
        if (base_path_.back() != '/') base_path_ += "/";
        inbound_port_ = static_cast<int>(cfg.integer("inbound_port", 4443, 1, 65535));
        given_.username = cfg.string("username", "admin");
        given_.password = cfg.string("password", "admin");  // the binary seeds admin/admin
        image_ = cfg.string("image", "ghcr.io/mhsanaei/3x-ui:v3.9.0");
        http_timeout_ms_ = static_cast<int>(cfg.integer("http_timeout_ms", 30000, 100, 600000));
        cfg.finish();
        if (launch.mode == panelkit::RunMode::native && launch.env.empty())
            launch.env = {{"XUI_DB_FOLDER", "${data_dir}"}, {"XUI_LOG_FOLDER", "${data_dir}"}, {"XUI_PORT", "${port}"}};
        launch.project = "stand3xui";
        launch.container = "stand_3xui";
        launcher_ = std::make_unique<panelkit::Launcher>(host_, "3x-ui", launch);
        launcher_->set_variable("data_dir", data_dir().string());
        launcher_->set_variable("port", std::to_string(port_));
        launcher_->set_variable("sub_port", std::to_string(sub_port_));
        launcher_->set_variable("listen", host_name_);
        launcher_->set_compose_text(compose_yaml());
    }

    // --- lifecycle
    stand_result install() override {
        fs::create_directories(data_dir());
        return STAND_OK;
    }
    stand_result start() override {
        fs::create_directories(data_dir());
        launcher_->start();
        return STAND_OK;
    }
    stand_result stop() override {
        if (!launcher_->running()) return STAND_OK_NOTHING_TO_DO;
        launcher_->stop();
        return STAND_OK;
    }
    stand_result restart() override {
        launcher_->restart();
        api_.reset();  // the next admin call logs in again
        return STAND_OK;
    }
    stand_result wipe() override {
        if (launcher_->running()) throw Error(STAND_E_BAD_STATE, "3x-ui: stop before wipe");
        launcher_->wipe();
        std::error_code ec;
        fs::remove_all(data_dir(), ec);
        if (ec) throw Error(STAND_E_IO, "3x-ui: cannot remove " + data_dir().string() + ": " + ec.message());
        users_.clear();
        inbound_id_.reset();
        api_.reset();
        return STAND_OK;
    }
    json::object readiness() override {
        return {{"method", "GET"}, {"url", panel_url() + base_path_}, {"expect_status", json::array{200}},
                {"per_try_timeout_ms", 2000}};
    }
    json::object facts() override {
        json::object f{{"data_dirs", json::array{data_dir().string()}},
                       {"credentials_file", credentials_file().string()}};
        if (client_api_) f["client_api"] = *client_api_ == xui::ClientApi::v31 ? "clients/* (v3.1+)" : "inbounds/addClient (legacy)";
        for (const auto& [k, v] : launcher_->deployment_facts()) f[k] = v;
        return f;
    }

    // --- panel
    void bootstrap() override {
        auto& api = session();
        client_api_ = api.detect_client_api();
        inbound_id_ = api.find_inbound(kRemark);
        if (!inbound_id_) inbound_id_ = api.add_vless_reality_inbound(kRemark, inbound_port_);
        auto sub = api.sub_settings();
        sub_base_ = sub.uri.empty() ? "http://" + host_name_ + ":" + std::to_string(sub_port_) + sub.path : sub.uri;
        if (sub_base_.back() != '/') sub_base_ += "/";
    }

    json::object create_user(const std::string& name) override {
        require_bootstrap("create_user");
        xui::XuiUser user{name, uuid4(), panelkit::random_hex(8)};
        session().add_client(*client_api_, *inbound_id_, user);
        users_[name] = user;
        return {{"name", name}, {"id", name}, {"subscription", subscription(user.sub_id)}};
    }

    void delete_user(const std::string& user_id) override {
        require_bootstrap("delete_user");
        session().delete_client(*client_api_, *inbound_id_, user_id);
        users_.erase(user_id);
    }

    void admin_call() override {
        require_bootstrap("admin_call");
        session().list_inbounds(*client_api_);
    }

    json::object subscription_request(const std::string& user_id) override {
        require_bootstrap("subscription_request");
        auto it = users_.find(user_id);
        if (it != users_.end()) return subscription(it->second.sub_id);
        if (*client_api_ == xui::ClientApi::v31) return subscription(session().client_sub_id(user_id));
        throw Error(STAND_E_NOT_FOUND, "3x-ui: no user '" + user_id + "' created by this instance");
    }

private:
    fs::path data_dir() const { return fs::path(host_.data_dir()) / "3x-ui"; }
    fs::path credentials_file() const { return fs::path(host_.data_dir()) / "3x-ui-credentials.json"; }
    std::string panel_url() const { return "http://" + host_name_ + ":" + std::to_string(port_); }

    xui::XuiApi& session() {
        if (!api_) {
            auto c = panelkit::load_or_create_credentials(credentials_file(), given_);
            api_ = std::make_unique<xui::XuiApi>(host_, panel_url() + base_path_.substr(0, base_path_.size() - 1),
                                                 c.username, c.password, http_timeout_ms_);
            api_->login();
        }
        return *api_;
    }

    void require_bootstrap(const char* what) const {
        if (!client_api_ || !inbound_id_)
            throw Error(STAND_E_BAD_STATE, std::string("3x-ui: ") + what + " before bootstrap");
    }

    json::object subscription(const std::string& sub_id) const {
        return {{"method", "GET"},
                {"url", panelkit::resolve_url(panel_url() + "/", sub_base_ + sub_id)},
                {"headers", {{"User-Agent", "v2rayN/7.5.0"}}}};
    }

    std::string compose_yaml() const {
        return "services:\n"
               "  x-ui:\n"
               "    image: " + image_ + "\n"
               "    container_name: stand_3xui\n"
               "    cgroup_parent: ${STAND_CGROUP_PARENT}\n"
               "    tty: true\n"
               "    cap_add: [NET_ADMIN, NET_RAW]\n"
               "    environment:\n"
               "      XRAY_VMESS_AEAD_FORCED: \"false\"\n"
               "      XUI_ENABLE_FAIL2BAN: \"true\"\n"
               "    ports:\n"
               "      - \"" + host_name_ + ":" + std::to_string(port_) + ":2053\"\n"
               "      - \"" + host_name_ + ":" + std::to_string(sub_port_) + ":2096\"\n"
               "    volumes:\n"
               "      - \"${data_dir}/db:/etc/x-ui\"\n";
    }

    stand::cpp::Host host_;
    std::string host_name_;
    int port_ = 2053, sub_port_ = 2096, inbound_port_ = 4443, http_timeout_ms_ = 30000;
    std::string base_path_;
    panelkit::Credentials given_;
    std::string image_;
    std::unique_ptr<panelkit::Launcher> launcher_;
    std::unique_ptr<xui::XuiApi> api_;
    std::optional<xui::ClientApi> client_api_;
    std::optional<long long> inbound_id_;
    std::string sub_base_;
    std::map<std::string, xui::XuiUser> users_;
};

}  // namespace

STAND_CPP_PLUGIN(Xui, "3x-ui", "3x-ui", "0.1.0",
                 "3x-ui panel: native binary or docker compose in the measured box; VLESS Reality users.",
                 R"({"type":"object","additionalProperties":false,"properties":{
                     "mode":{"enum":["native","docker"],"default":"native"},
                     "command":{"type":"array","items":{"type":"string"},"default":["x-ui"],
                                "description":"native argv; ${data_dir} ${port} ${sub_port} ${listen} are expanded"},
                     "env":{"type":"object","additionalProperties":{"type":"string"},
                            "description":"native env; default XUI_DB_FOLDER/XUI_LOG_FOLDER=${data_dir}, XUI_PORT=${port}"},
                     "docker":{"type":"string","default":"docker"},
                     "image":{"type":"string","default":"ghcr.io/mhsanaei/3x-ui:v3.9.0"},
                     "box":{"type":"string","default":"measured"},
                     "host":{"type":"string","default":"127.0.0.1"},
                     "port":{"type":"integer","minimum":1,"maximum":65535,"default":2053},
                     "sub_port":{"type":"integer","minimum":1,"maximum":65535,"default":2096},
                     "web_base_path":{"type":"string","default":"/"},
                     "inbound_port":{"type":"integer","minimum":1,"maximum":65535,"default":4443},
                     "http_timeout_ms":{"type":"integer","minimum":100,"maximum":600000,"default":30000,
                                        "description":"per admin call, connect to last byte"},
                     "username":{"type":"string","default":"admin"},
                     "password":{"type":"string","default":"admin","description":"never logged"}}})")
