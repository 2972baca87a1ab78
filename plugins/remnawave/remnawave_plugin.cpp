// Remnawave (backend 3.x; its source read at 3.3.2), on the panel kit: the
// official docker compose with a generated .env and the box as cgroup
// parent, or natively its declared parts in the box (PostgreSQL, Redis, the
// migrations, the seeder and the three apps of a backend built from source;
// remnawave_deployment.hpp), or a given command (the test double); with
// run_node, a node beside it (remnawave_node.hpp) that bootstrap registers
// and waits for (remnawave_enrol.hpp). Admin calls carry an API token
// (remnawave_api.hpp); users join the default squad, or a Hysteria 2 squad
// (remnawave_provision.hpp), and are switched off and on, given a quota and
// read for their traffic through the same API (ABI 1.3); the dashboard's home
// page polls are described with a login of their own (ABI 1.4).
#include "remnawave_api.hpp"
#include "remnawave_config.hpp"
#include "remnawave_deployment.hpp"
#include "remnawave_enrol.hpp"
#include "remnawave_env.hpp"
#include "remnawave_node.hpp"
#include "remnawave_provision.hpp"

#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/file_text.hpp>
#include <stand/kits/panel/hysteria2.hpp>
#include <stand/kits/panel/panel_plugin.hpp>

#include <map>
#include <memory>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;
using stand_remnawave::kPanel;

class Remnawave : public stand_panel_kit::PanelPlugin {
public:
    Remnawave(const stand::cpp::Host& host, const json::object& config) : PanelPlugin(host, kPanel) {
        auto cfg = stand_remnawave::config_spec().read(config);
        const bool own_command = cfg.given("command");
        auto lc = stand_panel_kit::read_launch_config(cfg);
        host_name_ = cfg.string("host");
        port_ = static_cast<int>(cfg.integer("port"));
        given_ = stand_panel_kit::read_given_credentials(cfg);
        const std::string image = cfg.string("image");
        sub_domain_ = cfg.optional_string("sub_public_domain").value_or(host_name_ + ":" + std::to_string(port_) + "/api/sub");
        native_ = {cfg.string("source_dir"), cfg.string("node"), cfg.string("postgres_bin"),
                   cfg.string("postgres_user"), cfg.string("redis_server"), cfg.string("migrations")};
        const std::map<std::string, std::string> vars{
            {"port", std::to_string(port_)}, {"listen", host_name_}, {"sub_public_domain", sub_domain_},
            {"db_port", std::to_string(cfg.integer("database_port"))}, {"redis_port", std::to_string(cfg.integer("redis_port"))},
            {"metrics_port", std::to_string(cfg.integer("metrics_port"))}};
        hysteria2_ = stand_panel_kit::read_hysteria2_choice(cfg, "the default squad's inbound keeps its port");
        const std::string node_image = read_node_config(cfg);
        cfg.finish();
        docker_ = lc.mode == stand_panel_kit::RunMode::docker;
        if (!docker_) declared_ = stand_remnawave::deploy_native(lc, native_, own_command);
        if (run_node_ && !docker_) add_native_node(lc);
        lc.project = "standremna";
        lc.container = "stand_remnawave";
        launch(std::move(lc), vars, docker_ ? "docker mode runs " + image + ", " + stand_remnawave::kDbImage + " and " + stand_remnawave::kRedisImage
                                            : std::string("native mode runs a backend built from source (config.source_dir, tests/real-panels/prepare_remnawave.sh)"));
        auto compose = stand_remnawave::compose_file({image, host_name_, port_, hysteria2_.enabled});
        if (run_node_) compose.services.push_back(stand_remnawave::node_compose_service(node_image, node_.port));
        launcher().set_compose(compose);
        if (declared_) launcher().add_artifact(native_.source_dir);  // dist/, node_modules/, prisma/: the image's /opt/app
        if (run_node_ && !docker_) launcher().add_artifact(node_.source_dir);
        if (docker_) images_ = {image, stand_remnawave::kDbImage, stand_remnawave::kRedisImage};
        if (docker_ && run_node_) images_.push_back(node_image);
    }

    json::object readiness() override {
        // This endpoint reads the database: ready means the backend can serve.
        return {{"method", "GET"}, {"url", origin() + "/api/auth/status"}, {"headers", stand_remnawave::Api::forwarding()},
                {"expect_status", json::array{200}}, {"per_try_timeout_ms", 2000}};
    }

private:
    void install_hook() override {
        if (docker_) check_docker_images(images_);
        if (declared_) stand_remnawave::check_build(native_);
        if (run_node_ && !docker_) stand_remnawave::check_node_build(node_);
        if (docker_ || declared_) ensure_env();  // compose reads it for every command, `down -v` of a wipe too
        if (docker_) ensure_node_env_file();
    }

    void start_hook() override {
        if (docker_ || declared_) ensure_env();
        // docker: the compose file mounts it (a missing source would be made by the daemon, as root)
        if (docker_ && hysteria2_.enabled) fs::create_directories(data_dir() / "tls");
        if (docker_) ensure_node_env_file();
    }

    void restart_hook() override { api_.reset(); }  // the kept token is tried again, then replaced if dead

    // `down` leaves a service of a profile that was not named (compose v2).
    void stop_hook() override {
        if (docker_ && run_node_)
            launcher().run_capture(launcher().compose_argv({"--profile", stand_remnawave::kNodeProfile, "down"}),
                                   "stop the node", 120000);
    }

    void wipe_hook() override {
        placement_ = {};
        users_.clear();
        api_.reset();
    }

    json::object facts_hook() override {
        json::object f{{"listen", host_name_}, {"sub_public_domain", sub_domain_}};
        stand_panel_kit::add_hysteria2_facts(f, hysteria2_, "default-squad");
        if (!node_address_.empty())
            f["node"] = {{"address", node_address_}, {"port", node_.port}, {"runs_here", run_node_},
                         {"name", stand_remnawave::kNodeName}};
        if (docker_) f["images"] = json::value_from(images_);
        if (docker_) f["env_file"] = (data_dir() / ".env").string();
        else f["listen_note"] = "the backend's app.listen(APP_PORT) binds every interface; only docker mode publishes it on the configured address alone";
        return f;
    }

    void bootstrap_hook() override {
        stand_remnawave::NodeSite node;
        if (!node_address_.empty()) {
            node.address = node_address_;
            node.enrol = [this](const std::string& profile, const std::string& inbound) {
                write_node_env();
                // Another instance on the same data dir registers the node its owner runs.
                if (run_node_ && launcher().running()) start_node();
                stand_remnawave::register_node(api(), {node_address_, node_.port, node_ready_s_, node_log()}, profile, inbound);
            };
        }
        if (!hysteria2_.enabled) {
            placement_ = stand_remnawave::place_on_default_squad(api(), node);
            return;
        }
        const fs::path tls = data_dir() / "tls";
        const auto cert = stand_panel_kit::hysteria2_certificate(kPanel, tls, docker_ ? fs::path(stand_remnawave::kContainerTls) : tls);
        placement_ = stand_remnawave::place_on_hysteria2(api(), {cert, hysteria2_.inbound_port, hysteria2_.congestion}, node);
    }

    json::object create_user_hook(const std::string& name) override {
        const auto user = api().create_user(name, placement_.squad);
        json::object out{{"name", name}, {"id", user.id}, {"subscription", api().subscription(user.subscription_url)}};
        if (!placement_.tunnel_auth_field.empty())
            out["tunnel_auth"] = stand_panel_kit::string_member(user.response, kPanel, "create user", {placement_.tunnel_auth_field.c_str()});
        users_[user.id] = user.subscription_url;
        return out;
    }

    void delete_user_hook(const std::string& id) override {
        users_.erase(id);
        if (!api().delete_user(id)) throw Error(STAND_E_NOT_FOUND, "remnawave: delete user: no user " + id);
    }

    void admin_call_hook() override {
        api().list_users(1);
    }

    void set_user_enabled_hook(const std::string& id, bool enabled) override {
        if (!api().set_user_enabled(id, enabled)) throw Error(STAND_E_NOT_FOUND, "remnawave: set_user_enabled: no user " + id);
    }

    void set_user_quota_hook(const std::string& id, std::uint64_t quota_bytes) override {
        if (!api().update_user(id, {{"trafficLimitBytes", quota_bytes}}, "limit user"))
            throw Error(STAND_E_NOT_FOUND, "remnawave: set_user_quota: no user " + id);
    }

    json::object user_traffic_hook(const std::string& id) override {
        const auto used = api().user_used_traffic(id);
        if (!used) throw Error(STAND_E_NOT_FOUND, "remnawave: user_traffic: no user " + id);
        return {{"total_bytes", *used}};  // Remnawave keeps one count, up and down together
    }

    // What the Remnawave frontend's home page (src/pages/dashboard/home, the
    // dashboard's landing page; frontend 3.2.1) polls while it is visible
    // (src/shared/api/hooks/system/system.query.hooks.ts): the system stats
    // and the bandwidth stats every 5.1 s, each with the browser's time zone,
    // and the runtime health every 10 s; a login of its own, as a browser has.
    std::vector<stand_panel_kit::DashboardRequest> dashboard_requests_hook() override {
        const auto headers = api().browser_headers();
        const std::string system = api().origin() + "/api/system/";
        return {{"home", "system_stats", 5.1, "GET", system + "stats?tz=UTC", headers, ""},
                {"home", "bandwidth_stats", 5.1, "GET", system + "stats/bandwidth?tz=UTC", headers, ""},
                {"home", "remnawave_health", 10, "GET", system + "health", headers, ""}};
    }

    json::object subscription_request_hook(const std::string& id) override {
        if (auto it = users_.find(id); it != users_.end()) return api().subscription(it->second);
        auto url = api().user_subscription_url(id);
        if (!url) throw Error(STAND_E_NOT_FOUND, "remnawave: no user " + id);
        return api().subscription(*url);
    }

    // Returns config.node_image; the native settings come from native_'s.
    std::string read_node_config(stand::cpp::ConfigValues& cfg) {
        run_node_ = cfg.boolean("run_node");
        const std::string source = cfg.optional_string("node_source_dir").value_or("");
        node_ = {source,
                 cfg.optional_string("node_root").value_or(source.empty() ? "" : (fs::path(source).parent_path() / "root").string()),
                 cfg.string("s6_supervise"), native_.node, static_cast<int>(cfg.integer("node_port"))};
        node_address_ = cfg.optional_string("node_address").value_or(run_node_ ? host_name_ : "");
        node_ready_s_ = static_cast<int>(cfg.integer("node_ready_timeout_s"));
        return cfg.string("node_image");
    }

    void add_native_node(stand_panel_kit::LaunchConfig& lc) {
        if (!declared_)
            throw stand::cpp::ConfigError("config.run_node: natively the node runs beside a backend built from source "
                                          "(config.source_dir), not beside config.command");
        for (auto p : stand_remnawave::node_processes(node_)) {
            for (const auto& [k, v] : lc.env) p.env[k] = v;
            lc.processes.push_back(std::move(p));
        }
    }

    // <data dir>/node.env from the backend's SECRET_KEY, rewritten when the
    // key changed (a new database); a node elsewhere is started with it.
    void write_node_env() {
        const std::string key = api().node_secret_key();
        host().mark_secret(key);
        const fs::path env = data_dir() / "node.env";
        if (stand_remnawave::node_env_secret_key(env) != key) stand_remnawave::write_node_env(env, key, !docker_);
        const auto values = stand_panel_kit::read_env_file(env, "remnawave: the node's env");
        if (const auto* t = values.if_contains("INTERNAL_REST_TOKEN"); t && t->is_string()) host().mark_secret(t->as_string());
    }

    // The node's processes, or its compose service.
    void start_node() {
        if (docker_) {
            launcher().run_capture(launcher().compose_argv({"--profile", stand_remnawave::kNodeProfile, "up", "-d",
                                                            stand_remnawave::kNodeService}),
                                   "start the node", 300000);
            return;
        }
        stand_remnawave::write_xray_service(data_dir() / "node" / "xray");
        for (const char* name : {stand_remnawave::kXrayProcess, stand_remnawave::kNodeProcess})
            if (!launcher().processes().running(name)) launcher().processes().start_process(name);
    }

    // docker: compose reads the node's env_file for every command, before
    // bootstrap has written its SECRET_KEY.
    void ensure_node_env_file() {
        std::error_code ec;
        if (run_node_ && !fs::exists(data_dir() / "node.env", ec))
            stand_panel_kit::write_private_file(data_dir() / "node.env", "");
    }

    std::string node_log() {
        if (!run_node_) return "the node at " + node_address_;
        if (docker_) return "`docker logs stand_remnawave_node`";
        return launcher().processes().log_file(stand_remnawave::kNodeProcess).string();
    }

    // Its generated secrets are the host's to hide, should a process print them.
    void ensure_env() {
        const fs::path file = data_dir() / ".env";
        stand_remnawave::ensure_env_file(file, {host_name_ + ":" + std::to_string(port_), sub_domain_, docker_});
        const auto env = stand_panel_kit::read_env_file(file, "remnawave");
        for (const char* key : {"APP_SECRET", "METRICS_PASS", "POSTGRES_PASSWORD"})
            if (const auto* v = env.if_contains(key); v && v->is_string()) host().mark_secret(v->as_string());
    }

    stand_remnawave::Api& api() {
        if (!api_)
            api_ = std::make_unique<stand_remnawave::Api>(host(), origin(), data_dir() / "stand-api-token.json", [this] {
                return stand_panel_kit::load_or_create_credentials(host(), credentials_file(), given_, "Bn-", "Aa1");
            });
        return *api_;
    }

    std::string origin() const { return "http://" + host_name_ + ":" + std::to_string(port_); }

    std::string host_name_, sub_domain_, node_address_;
    int port_ = 3000, node_ready_s_ = 60;
    bool docker_ = true, declared_ = false, run_node_ = false;
    stand_remnawave::NodeSettings node_;
    stand_remnawave::NativeSettings native_;
    std::vector<std::string> images_;
    stand_panel_kit::Credentials given_;
    stand_panel_kit::Hysteria2Choice hysteria2_;
    std::unique_ptr<stand_remnawave::Api> api_;
    stand_remnawave::Placement placement_;
    std::map<std::string, std::string> users_;  // id -> subscriptionUrl as returned
};

}  // namespace

STAND_CPP_PLUGIN(Remnawave, kPanel, "Remnawave", "0.3.0",
                 "Remnawave backend (source read at 3.3.2): the official docker compose with a generated .env, or its "
                 "parts declared natively in the measured box; users on the default squad's inbound, or on Hysteria 2.",
                 stand_remnawave::config_spec())
