// Remnawave (backend 3.x): docker compose (backend, Postgres, Valkey) with
// the box as cgroup parent, or a command that starts the backend (the test
// double here) spawned into the box (stand.lifecycle/1 + stand.panel/1).
// Every request carries X-Forwarded-For and X-Forwarded-Proto: https (the
// backend refuses others). Admin: register once, later log in; an API token
// is minted from that session with X-Remnawave-Client-Type: browser, then
// used as the bearer. Users join the default internal squad; a host on its
// Shadowsocks inbound gives each user a link.
#include "admin_api.hpp"
#include "credentials.hpp"
#include "launcher.hpp"

#include <stand/stand.hpp>

#include <filesystem>
#include <map>
#include <memory>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::ConfigError;
using stand::cpp::Error;

constexpr const char* kPanel = "remnawave";
constexpr const char* kHostRemark = "stand-host";

const json::object& forwarding() {
    static const json::object h{{"X-Forwarded-For", "127.0.0.1"}, {"X-Forwarded-Proto", "https"}};
    return h;
}

class Remnawave : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Panel {
public:
    Remnawave(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigReader cfg(config);
        const bool has_command = config.contains("command");
        auto launch = panelkit::read_launch_config(cfg, {}, panelkit::RunMode::docker);
        host_name_ = cfg.string("host", "127.0.0.1");
        port_ = static_cast<int>(cfg.integer("port", 3000, 1, 65535));
        given_.username = cfg.string("username", "benchadmin");
        given_.password = cfg.string("password", "");
        image_ = cfg.string("image", "remnawave/backend:3.4.5");
        cfg.finish();
        if (launch.mode == panelkit::RunMode::native && !has_command)
            throw ConfigError("config.command: Remnawave ships as a docker image; in native mode give the command "
                              "that starts the backend (or use \"mode\": \"docker\")");
        launch.project = "standremna";
        launch.container = "stand_remnawave";
        launcher_ = std::make_unique<panelkit::Launcher>(host_, kPanel, launch);
        launcher_->set_variable("data_dir", data_dir().string());
        launcher_->set_variable("port", std::to_string(port_));
        launcher_->set_variable("listen", host_name_);
        launcher_->set_compose_text(compose_yaml());
    }

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
        return STAND_OK;
    }
    stand_result wipe() override {
        if (launcher_->running()) throw Error(STAND_E_BAD_STATE, "remnawave: stop before wipe");
        launcher_->wipe();
        std::error_code ec;
        fs::remove_all(data_dir(), ec);
        if (ec) throw Error(STAND_E_IO, "remnawave: cannot remove " + data_dir().string() + ": " + ec.message());
        fs::remove(credentials_file(), ec);
        squad_.clear();
        users_.clear();
        api_.reset();
        return STAND_OK;
    }
    json::object readiness() override {
        // This endpoint reads the database: ready means the backend can serve.
        return {{"method", "GET"}, {"url", origin() + "/api/auth/status"}, {"headers", forwarding()},
                {"expect_status", json::array{200}}, {"per_try_timeout_ms", 2000}};
    }
    json::object facts() override {
        json::object f{{"data_dirs", json::array{data_dir().string()}},
                       {"credentials_file", credentials_file().string()}};
        for (const auto& [k, v] : launcher_->deployment_facts()) f[k] = v;
        return f;
    }

    void bootstrap() override {
        authenticate();
        auto squads = call("list squads", {{"method", "GET"}, {"url", url("/api/internal-squads")}}, {200});
        const auto& list = panelkit::member(squads.json, kPanel, "list squads", {"response", "internalSquads"});
        if (!list.is_array() || list.as_array().empty())
            throw panelkit::bad_response(kPanel, "list squads", "no internal squad", squads);
        const auto& squad = list.as_array().front();
        squad_ = panelkit::string_member(squad, kPanel, "list squads", {"uuid"});
        const auto& inbounds = panelkit::member(squad, kPanel, "list squads", {"inbounds"});
        if (!inbounds.is_array() || inbounds.as_array().empty())
            throw panelkit::bad_response(kPanel, "list squads", "the default squad has no inbound", squads);
        const auto& inbound = inbounds.as_array().front();
        const std::string inbound_uuid = panelkit::string_member(inbound, kPanel, "list squads", {"uuid"});
        const std::string profile_uuid = panelkit::string_member(inbound, kPanel, "list squads", {"profileUuid"});

        auto hosts = call("list hosts", {{"method", "GET"}, {"url", url("/api/hosts")}}, {200});
        const auto& host_list = panelkit::member(hosts.json, kPanel, "list hosts", {"response"});
        if (host_list.is_array())
            for (const auto& h : host_list.as_array())
                if (const auto* o = h.if_object(); o && o->contains("remark") && o->at("remark") == kHostRemark) return;
        call("create host",
             {{"method", "POST"},
              {"url", url("/api/hosts")},
              {"json", {{"inbound", {{"configProfileUuid", profile_uuid}, {"configProfileInboundUuid", inbound_uuid}}},
                        {"remark", kHostRemark},
                        {"address", "node1.bench.test"},
                        {"port", 1234}}}},
             {201});
    }

    json::object create_user(const std::string& name) override {
        require_bootstrap("create_user");
        json::object body{{"username", name},
                          {"expireAt", "2099-01-01T00:00:00.000Z"},
                          {"activeInternalSquads", json::array{squad_}}};
        auto r = call("create user", {{"method", "POST"}, {"url", url("/api/users")}, {"json", body}}, {201, 400, 409});
        if (r.status != 201) {
            const auto* o = r.json.if_object();
            const auto* code = o ? o->if_contains("errorCode") : nullptr;
            const bool duplicate = r.status == 409 || (code && *code == "A019");
            throw panelkit::bad_response(kPanel, "create user", duplicate ? "duplicate user '" + name + "'" : "refused", r);
        }
        const auto& user = panelkit::member(r.json, kPanel, "create user", {"response"});
        const auto* uo = user.if_object();
        const std::string id = panelkit::id_member(user, kPanel, "create user", {uo && uo->contains("uuid") ? "uuid" : "id"});
        const std::string short_uuid = panelkit::string_member(user, kPanel, "create user", {"shortUuid"});
        json::object out{{"name", name}, {"id", id}, {"subscription", subscription(short_uuid)}};
        if (uo && uo->contains("vlessUuid") && uo->at("vlessUuid").is_string()) out["tunnel_auth"] = uo->at("vlessUuid");
        users_[id] = short_uuid;
        return out;
    }

    void delete_user(const std::string& user_id) override {
        require_bootstrap("delete_user");
        auto r = call("delete user", {{"method", "DELETE"}, {"url", url("/api/users/" + user_id)}}, {200, 204, 404});
        if (r.status == 404) throw Error(STAND_E_NOT_FOUND, "remnawave: delete user: no user " + user_id);
        users_.erase(user_id);
    }

    void admin_call() override {
        require_bootstrap("admin_call");
        call("list users", {{"method", "GET"}, {"url", url("/api/users?size=1")}}, {200});
    }

    json::object subscription_request(const std::string& user_id) override {
        require_bootstrap("subscription_request");
        auto it = users_.find(user_id);
        if (it != users_.end()) return subscription(it->second);
        auto r = call("read user", {{"method", "GET"}, {"url", url("/api/users/" + user_id)}}, {200, 404});
        if (r.status == 404) throw Error(STAND_E_NOT_FOUND, "remnawave: no user " + user_id);
        return subscription(panelkit::string_member(r.json, kPanel, "read user", {"response", "shortUuid"}));
    }

private:
    fs::path data_dir() const { return fs::path(host_.data_dir()) / "remnawave"; }
    fs::path credentials_file() const { return fs::path(host_.data_dir()) / "remnawave-credentials.json"; }
    std::string origin() const { return "http://" + host_name_ + ":" + std::to_string(port_); }
    std::string url(const std::string& path) const { return origin() + path; }

    panelkit::AdminApi& api() {
        if (!api_) {
            api_ = std::make_unique<panelkit::AdminApi>(host_, kPanel, origin());
            for (const auto& [k, v] : forwarding()) api_->set_header(std::string(k), std::string(v.as_string()));
        }
        return *api_;
    }

    // One admin call; a 401 (the token died with a restart or a new secret)
    // costs one new login and one retry.
    panelkit::Reply call(const std::string& op, const json::object& request, std::vector<int> expect) {
        auto with_401 = expect;
        with_401.push_back(401);
        auto r = api().call(op, request, with_401, false);
        if (r.status == 401 && authenticated_) {
            authenticate();
            r = api().call(op, request, expect, false);
        } else if (r.status == 401) {
            throw panelkit::bad_response(kPanel, op, "not authenticated", r);
        }
        boost::system::error_code ec;
        r.json = json::parse(r.body, ec);
        if (ec && !r.body.empty()) throw panelkit::bad_response(kPanel, op, "the body is not JSON", r);
        return r;
    }

    void authenticate() {
        auto c = panelkit::load_or_create_credentials(credentials_file(), given_, "Bn-", "Aa1");
        auto& a = api();
        a.remove_header("Authorization");
        auto status = a.call("auth status", {{"method", "GET"}, {"url", url("/api/auth/status")}}, {200});
        const auto& allowed = panelkit::member(status.json, kPanel, "auth status", {"response", "isRegisterAllowed"});
        const bool register_first = allowed.is_bool() && allowed.as_bool();
        json::object credentials{{"username", c.username}, {"password", c.password}};
        panelkit::Reply r;
        if (register_first) {
            r = a.call("register", {{"method", "POST"}, {"url", url("/api/auth/register")}, {"json", credentials}}, {201});
        } else {
            r = a.call("login", {{"method", "POST"}, {"url", url("/api/auth/login")}, {"json", credentials}},
                       {200, 401, 403}, false);
            if (r.status != 200)
                throw panelkit::bad_response(kPanel, "login", "wrong credentials for admin '" + c.username + "'", r);
            boost::system::error_code ec;
            r.json = json::parse(r.body, ec);
            if (ec) throw panelkit::bad_response(kPanel, "login", "the body is not JSON", r);
        }
        const std::string session = panelkit::string_member(r.json, kPanel, "login", {"response", "accessToken"});
        // API tokens are minted from a dashboard session.
        a.set_header("Authorization", "Bearer " + session);
        a.set_header("X-Remnawave-Client-Type", "browser");
        auto t = a.call("create API token",
                        {{"method", "POST"}, {"url", url("/api/tokens")}, {"json", {{"name", "stand"}, {"expiresInDays", 7}}}},
                        {201});
        a.remove_header("X-Remnawave-Client-Type");
        a.set_header("Authorization",
                     "Bearer " + panelkit::string_member(t.json, kPanel, "create API token", {"response", "token"}));
        authenticated_ = true;
    }

    void require_bootstrap(const char* what) const {
        if (squad_.empty()) throw Error(STAND_E_BAD_STATE, std::string("remnawave: ") + what + " before bootstrap");
    }

    json::object subscription(const std::string& short_uuid) const {
        // subscriptionUrl names the public domain; the backend serves the same path here.
        json::object headers = forwarding();
        headers["User-Agent"] = "v2rayN/7.5.0";
        return {{"method", "GET"}, {"url", url("/api/sub/" + short_uuid)}, {"headers", headers}};
    }

    std::string compose_yaml() const {
        const std::string p = std::to_string(port_);
        return "services:\n"
               "  remnawave:\n"
               "    image: " + image_ + "\n"
               "    container_name: stand_remnawave\n"
               "    cgroup_parent: ${STAND_CGROUP_PARENT}\n"
               "    env_file: ${data_dir}/.env\n"
               "    ports: [\"" + host_name_ + ":" + p + ":3000\"]\n"
               "    ulimits: {nofile: {soft: 1048576, hard: 1048576}}\n"
               "    depends_on: {remnawave-db: {condition: service_healthy}, remnawave-redis: {condition: service_healthy}}\n"
               "  remnawave-db:\n"
               "    image: postgres:18.4\n"
               "    container_name: stand_remnawave_db\n"
               "    cgroup_parent: ${STAND_CGROUP_PARENT}\n"
               "    env_file: ${data_dir}/.env\n"
               "    volumes: [\"remnawave-db-data:/var/lib/postgresql\"]\n"
               "    healthcheck: {test: [\"CMD-SHELL\", \"pg_isready -U postgres\"], interval: 3s, retries: 20}\n"
               "  remnawave-redis:\n"
               "    image: valkey/valkey:9-alpine\n"
               "    container_name: stand_remnawave_redis\n"
               "    cgroup_parent: ${STAND_CGROUP_PARENT}\n"
               "    healthcheck: {test: [\"CMD\", \"valkey-cli\", \"ping\"], interval: 3s, retries: 20}\n"
               "volumes:\n"
               "  remnawave-db-data: {}\n";
    }

    stand::cpp::Host host_;
    std::string host_name_;
    int port_ = 3000;
    panelkit::Credentials given_;
    std::string image_;
    std::unique_ptr<panelkit::Launcher> launcher_;
    std::unique_ptr<panelkit::AdminApi> api_;
    bool authenticated_ = false;
    std::string squad_;
    std::map<std::string, std::string> users_;  // id -> shortUuid
};

}  // namespace

STAND_CPP_PLUGIN(Remnawave, "remnawave", "Remnawave", "0.1.0",
                 "Remnawave backend: docker compose (or a given command) in the measured box; Shadowsocks users.",
                 R"({"type":"object","additionalProperties":false,"properties":{
                     "mode":{"enum":["native","docker"],"default":"docker"},
                     "command":{"type":"array","items":{"type":"string"},
                                "description":"native: the command that starts the backend; ${data_dir} ${port} ${listen} expanded"},
                     "env":{"type":"object","additionalProperties":{"type":"string"}},
                     "docker":{"type":"string","default":"docker"},
                     "image":{"type":"string","default":"remnawave/backend:3.4.5"},
                     "box":{"type":"string","default":"measured"},
                     "host":{"type":"string","default":"127.0.0.1"},
                     "port":{"type":"integer","minimum":1,"maximum":65535,"default":3000},
                     "username":{"type":"string","default":"benchadmin"},
                     "password":{"type":"string","description":"generated (24+ chars) and kept 0600 when absent; never logged"}}})")
