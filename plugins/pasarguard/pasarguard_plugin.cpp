// PasarGuard (v5; checked on the real v5.2.1), on the panel kit: docker
// compose with the pinned image, or the panel run from its source with its
// migrations as declared processes in the box (pasarguard_deployment.hpp),
// or a given command (the test double). The owner is made once with a temp
// key from the panel's CLI; admin calls use the bearer of
// /api/admin/token (pasarguard_api.hpp). Users join a group on "Shadowsocks
// TCP", or on a Hysteria 2 core config of the adapter's own
// (pasarguard_provision.hpp); subscription_url is relative to the panel.
#include "pasarguard_api.hpp"
#include "pasarguard_config.hpp"
#include "pasarguard_deployment.hpp"
#include "pasarguard_node.hpp"
#include "pasarguard_provision.hpp"
#include "python_install.hpp"

#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/panel_plugin.hpp>
#include <stand/kits/panel/url.hpp>

#include <map>
#include <memory>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;
using stand_pasarguard::kPanel;

class PasarGuard : public stand_panel_kit::PanelPlugin {
public:
    PasarGuard(const stand::cpp::Host& host, const json::object& config) : PanelPlugin(host, kPanel) {
        auto cfg = stand_pasarguard::config_spec().read(config);
        const bool own_command = cfg.given("command");
        auto lc = stand_panel_kit::read_launch_config(cfg);
        host_name_ = cfg.string("host");
        port_ = static_cast<int>(cfg.integer("port"));
        given_ = stand_panel_kit::read_given_credentials(cfg);
        image_ = cfg.string("image");
        source_dir_ = cfg.string("source_dir");
        const stand_pasarguard::Settings settings{image_, source_dir_, cfg.string("python"), cfg.strings("temp_key_command"), own_command};
        hysteria2_ = stand_panel_kit::read_hysteria2_choice(cfg, "Shadowsocks TCP keeps its port");
        node_ = stand_pasarguard::read_node_settings(cfg, host_name_);
        cfg.finish();
        docker_ = lc.mode == stand_panel_kit::RunMode::docker;
        const auto deployed = stand_pasarguard::deploy(lc, settings);
        python_ = deployed.python;
        temp_key_command_ = deployed.temp_key_command;
        lc.project = "standpasar";
        lc.container = stand_pasarguard::kContainer;
        stand_pasarguard::add_node_process(lc, node_);
        launch(std::move(lc), {{"port", std::to_string(port_)}, {"listen", host_name_}, {"node_port", std::to_string(node_.port)}},
               docker_ ? "docker mode runs the image " + image_
                       : std::string("native mode runs PasarGuard from its source: config.source_dir is the checkout, "
                                     "config.python its interpreter (default source_dir/.venv/bin/python3, made by `uv sync`)"));
        if (!source_dir_.empty()) {
            launcher().add_artifact(source_dir_);
            for (const auto& p : stand_pasarguard::python_artifacts(python_, source_dir_)) launcher().add_artifact(p);
        }
        if (node_.enabled()) launcher().add_artifact(node_.binary);
        launcher().set_compose(stand_pasarguard::compose_file(image_, host_name_, port_));
    }

    json::object readiness() override {
        // /health is the image's own health check; / serves the dashboard.
        return {{"method", "GET"}, {"url", url("/health")}, {"expect_status", json::array{200}}, {"per_try_timeout_ms", 2000},
                {"also", json::array{json::object{{"method", "GET"}, {"url", url("/")}, {"expect_status", json::array{200}}}}}};
    }

private:
    void install_hook() override {
        stand_pasarguard::check_node_install(node_);
        if (docker_) return check_docker_images({image_});
        if (!source_dir_.empty()) stand_pasarguard::check_source(source_dir_);
    }

    void start_hook() override {
        if (node_.enabled()) stand_pasarguard::ensure_node_files(host(), data_dir());
    }

    void wipe_hook() override {  // node_state_ stays: facts come after the teardown's wipe
        group_id_.reset();
        users_.clear();
        api_.reset();
    }

    json::object facts_hook() override {
        json::object f{{"listen", host_name_}, {"temp_key_command", json::value_from(temp_key_command_)}};
        stand_panel_kit::add_hysteria2_facts(f, hysteria2_, "shadowsocks");
        if (docker_) f["image"] = image_;
        if (!source_dir_.empty()) {
            f["source_dir"] = source_dir_;
            f["python"] = python_;
            if (auto v = stand_pasarguard::source_version(source_dir_); !v.empty()) f["versions"] = json::object{{"pasarguard", v}};
        }
        stand_pasarguard::add_node_facts(f, node_, node_state_);
        return f;
    }

    void bootstrap_hook() override {
        stand_pasarguard::ensure_owner(api(), data_dir() / ".stand-owner-created", [this] { return temp_key(); });
        // With a node here the links name it and its inbound binds only config.host.
        const std::string address = node_.enabled() ? host_name_ : stand_pasarguard::kNodeAddress;
        stand_pasarguard::Placement placed;
        if (hysteria2_.enabled) {
            // The core's certificate in <data dir>/tls, named as the panel reads it (docker: /var/lib/pasarguard/tls).
            const fs::path dir = data_dir() / "tls";
            const auto cert = stand_panel_kit::hysteria2_certificate(
                kPanel, dir, docker_ ? fs::path(stand_pasarguard::kContainerDataDir) / "tls" : dir);
            placed = stand_pasarguard::place_on_hysteria2(
                api(), {cert, hysteria2_.inbound_port, hysteria2_.congestion, node_.enabled() ? host_name_ : ""}, address);
        } else {
            placed = stand_pasarguard::place_on_shadowsocks(api(), address);
        }
        group_id_ = placed.group;
        if (!node_.enabled()) return;
        const auto files = stand_pasarguard::ensure_node_files(host(), data_dir());  // made by start(): read here
        node_state_ = stand_pasarguard::register_node(host(), api(), {host_name_, node_.port, files, placed.core}, 90000);
    }

    json::object create_user_hook(const std::string& name) override {
        const auto user = api().create_user(name, *group_id_);
        users_[user.id] = user.subscription_url;
        // What the inbound's links carry: Shadowsocks' password, Hysteria's auth.
        const auto auth = hysteria2_.enabled ? stand_panel_kit::string_member(user.response, kPanel, "create user", {"proxy_settings", "hysteria", "auth"})
                                             : stand_panel_kit::string_member(user.response, kPanel, "create user", {"proxy_settings", "shadowsocks", "password"});
        return {{"name", name}, {"id", user.id}, {"subscription", subscription(user.subscription_url)}, {"tunnel_auth", auth}};
    }

    void delete_user_hook(const std::string& id) override {
        users_.erase(id);  // SQLite gives the next user a deleted user's id when it was the highest: forget it either way
        if (!api().delete_user(id)) throw Error(STAND_E_NOT_FOUND, "pasarguard: delete user: no user " + id);
    }

    void admin_call_hook() override {
        api().list_users(1);
    }

    void set_user_enabled_hook(const std::string& id, bool enabled) override {
        if (!api().modify_user(id, {{"status", enabled ? "active" : "disabled"}}, enabled ? "enable user" : "disable user"))
            throw Error(STAND_E_NOT_FOUND, "pasarguard: set_user_enabled: no user " + id);
    }

    void set_user_quota_hook(const std::string& id, std::uint64_t quota_bytes) override {
        if (!api().modify_user(id, {{"data_limit", quota_bytes}}, "limit user"))
            throw Error(STAND_E_NOT_FOUND, "pasarguard: set_user_quota: no user " + id);
    }

    json::object user_traffic_hook(const std::string& id) override {
        const auto used = api().user_used_traffic(id);
        if (!used) throw Error(STAND_E_NOT_FOUND, "pasarguard: user_traffic: no user " + id);
        return {{"total_bytes", *used}};  // PasarGuard keeps one count, up and down together
    }

    // What PasarGuard v5.2.1's statistics page polls while open, every 2 s
    // (dashboard/src/pages/_dashboard.statistics.tsx): the master's resources
    // and the users' counts; a browser's own sign-in.
    std::vector<stand_panel_kit::DashboardRequest> dashboard_requests_hook() override {
        const auto headers = api().browser_headers();
        return {{"statistics", "system_resources", 2, "GET", api().origin() + "/api/system/resources", headers, ""},
                {"statistics", "system_users", 2, "GET", api().origin() + "/api/system/users", headers, ""}};
    }

    json::object subscription_request_hook(const std::string& id) override {
        if (auto it = users_.find(id); it != users_.end()) return subscription(it->second);
        auto url = api().user_subscription_url(id);
        if (!url) throw Error(STAND_E_NOT_FOUND, "pasarguard: read user: no user " + id);
        return subscription(*url);
    }

    // A one-time secret (in the helper's 0600 log too, removed when it succeeded).
    std::string temp_key() {
        const std::string key = stand_pasarguard::parse_temp_key(launcher().run_capture(temp_key_command_, "generate-temp-key", 120000));
        host().mark_secret(key);
        return key;
    }


    stand_pasarguard::Api& api() {
        // Policy: >= 12 chars, >= 2 digits, >= 2 upper, >= 2 lower, >= 1 special.
        if (!api_) api_ = std::make_unique<stand_pasarguard::Api>(host(), url(""), [this] {
            return stand_panel_kit::load_or_create_credentials(host(), credentials_file(), given_, "Bn-", "Aa19");
        });
        return *api_;
    }

    std::string url(const std::string& path) const { return "http://" + host_name_ + ":" + std::to_string(port_) + path; }

    json::object subscription(const std::string& sub_url) const {
        return stand_panel_kit::subscription_get(stand_panel_kit::resolve_url(url("/"), sub_url));
    }

    std::string host_name_, image_, source_dir_, python_;
    int port_ = 8000;
    bool docker_ = true;
    stand_panel_kit::Credentials given_;
    std::vector<std::string> temp_key_command_;
    stand_panel_kit::Hysteria2Choice hysteria2_;
    stand_pasarguard::NodeSettings node_;
    std::optional<stand_pasarguard::NodeState> node_state_;
    std::unique_ptr<stand_pasarguard::Api> api_;
    std::optional<long long> group_id_;
    std::map<std::string, std::string> users_;  // id -> subscription_url as the panel gave it
};

}  // namespace

STAND_CPP_PLUGIN(PasarGuard, kPanel, "PasarGuard", "0.3.0",
                 "PasarGuard panel (checked on the real v5.2.1): docker compose with the pinned image, or run from its "
                 "source with its migrations, in the measured box; Shadowsocks or Hysteria 2 users.",
                 stand_pasarguard::config_spec())
