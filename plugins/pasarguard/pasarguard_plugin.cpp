// PasarGuard (v5): docker compose (host network, SQLite) with the box as
// cgroup parent, or a command that starts the panel (the test double here)
// spawned into the box (stand.lifecycle/1 + stand.panel/1). The owner is
// created once with a temp key from the panel's CLI and POST /api/setup/owner;
// admin calls use the bearer from the form-encoded /api/admin/token. Users
// join a group on "Shadowsocks TCP"; a host on that inbound gives the link.
// subscription_url is relative: it is resolved against the panel origin.
#include "admin_api.hpp"
#include "credentials.hpp"
#include "launcher.hpp"
#include "url.hpp"

#include <stand/stand.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::ConfigError;
using stand::cpp::Error;

constexpr const char* kPanel = "pasarguard";
constexpr const char* kInboundTag = "Shadowsocks TCP";
constexpr const char* kGroup = "everyone";
constexpr const char* kHostRemark = "stand-host";

std::vector<std::string> strings(const json::array& a, const std::string& field) {
    std::vector<std::string> out;
    for (const auto& v : a) {
        if (!v.is_string()) throw ConfigError("config." + field + ": expected an array of strings");
        out.emplace_back(v.as_string());
    }
    return out;
}

// Items of a list answer: an array, or {"<key>": [...]} (paged lists).
const json::array* items(const json::value& v, const char* key) {
    if (v.is_array()) return &v.as_array();
    if (const auto* o = v.if_object())
        if (const auto* a = o->if_contains(key); a && a->is_array()) return &a->as_array();
    return nullptr;
}

class PasarGuard : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Panel {
public:
    PasarGuard(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigReader cfg(config);
        const bool has_command = config.contains("command");
        auto launch = panelkit::read_launch_config(cfg, {}, panelkit::RunMode::docker);
        host_name_ = cfg.string("host", "127.0.0.1");
        port_ = static_cast<int>(cfg.integer("port", 8000, 1, 65535));
        given_.username = cfg.string("username", "benchadmin");
        given_.password = cfg.string("password", "");
        image_ = cfg.string("image", "pasarguard/panel:v5.4.1");
        if (const auto* t = cfg.array("temp_key_command")) temp_key_command_ = strings(*t, "temp_key_command");
        cfg.finish();
        if (launch.mode == panelkit::RunMode::native && !has_command)
            throw ConfigError("config.command: PasarGuard ships as a docker image; in native mode give the command "
                              "that starts the panel (or use \"mode\": \"docker\")");
        if (temp_key_command_.empty())
            temp_key_command_ = launch.mode == panelkit::RunMode::docker
                                    ? std::vector<std::string>{launch.docker, "exec", "stand_pasarguard", "pasarguard-cli",
                                                               "generate-temp-key"}
                                    : std::vector<std::string>{"pasarguard-cli", "generate-temp-key"};
        launch.project = "standpasar";
        launch.container = "stand_pasarguard";
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
        if (launcher_->running()) throw Error(STAND_E_BAD_STATE, "pasarguard: stop before wipe");
        launcher_->wipe();
        std::error_code ec;
        fs::remove_all(data_dir(), ec);
        if (ec) throw Error(STAND_E_IO, "pasarguard: cannot remove " + data_dir().string() + ": " + ec.message());
        fs::remove(credentials_file(), ec);
        group_id_.reset();
        users_.clear();
        api_.reset();
        return STAND_OK;
    }
    json::object readiness() override {
        return {{"method", "GET"}, {"url", origin() + "/"}, {"expect_status", json::array{200}},
                {"per_try_timeout_ms", 2000}};
    }
    json::object facts() override {
        json::object f{{"data_dirs", json::array{data_dir().string()}},
                       {"credentials_file", credentials_file().string()},
                       {"temp_key_command", json::value_from(temp_key_command_)}};
        for (const auto& [k, v] : launcher_->deployment_facts()) f[k] = v;
        return f;
    }

    void bootstrap() override {
        if (!fs::exists(owner_marker())) create_owner();
        authenticate();
        group_id_ = find_or_create_group();
        ensure_host();
    }

    json::object create_user(const std::string& name) override {
        require_bootstrap("create_user");
        auto r = call("create user",
                      {{"method", "POST"},
                       {"url", url("/api/user")},
                       {"json", {{"username", name}, {"group_ids", json::array{*group_id_}}, {"data_limit", 0}}}},
                      {201, 409});
        if (r.status == 409) throw panelkit::bad_response(kPanel, "create user", "duplicate user '" + name + "'", r);
        const std::string id = panelkit::id_member(r.json, kPanel, "create user", {"id"});
        const std::string sub = panelkit::string_member(r.json, kPanel, "create user", {"subscription_url"});
        json::object out{{"name", name}, {"id", id}, {"subscription", subscription(sub)}};
        users_[id] = sub;
        return out;
    }

    void delete_user(const std::string& user_id) override {
        require_bootstrap("delete_user");
        auto r = call("delete user", {{"method", "DELETE"}, {"url", url("/api/user/by-id/" + user_id)}}, {200, 204, 404});
        if (r.status == 404) throw Error(STAND_E_NOT_FOUND, "pasarguard: delete user: no user " + user_id);
        users_.erase(user_id);
    }

    void admin_call() override {
        require_bootstrap("admin_call");
        call("list users", {{"method", "GET"}, {"url", url("/api/users?limit=1")}}, {200});
    }

    json::object subscription_request(const std::string& user_id) override {
        require_bootstrap("subscription_request");
        auto it = users_.find(user_id);
        if (it != users_.end()) return subscription(it->second);
        auto r = call("read user", {{"method", "GET"}, {"url", url("/api/user/by-id/" + user_id)}}, {200, 404});
        if (r.status == 404) throw Error(STAND_E_NOT_FOUND, "pasarguard: no user " + user_id);
        return subscription(panelkit::string_member(r.json, kPanel, "read user", {"subscription_url"}));
    }

private:
    fs::path data_dir() const { return fs::path(host_.data_dir()) / "pasarguard"; }
    fs::path credentials_file() const { return fs::path(host_.data_dir()) / "pasarguard-credentials.json"; }
    fs::path owner_marker() const { return data_dir() / ".stand-owner-created"; }
    std::string origin() const { return "http://" + host_name_ + ":" + std::to_string(port_); }
    std::string url(const std::string& path) const { return origin() + path; }

    panelkit::Credentials credentials() const {
        // Policy: >= 12 chars, >= 2 digits, >= 2 upper, >= 2 lower, >= 1 special.
        return panelkit::load_or_create_credentials(credentials_file(), given_, "Bn-", "Aa19");
    }

    panelkit::AdminApi& api() {
        if (!api_) api_ = std::make_unique<panelkit::AdminApi>(host_, kPanel, origin(), json::object{{"cookies", false}});
        return *api_;
    }

    panelkit::Reply call(const std::string& op, const json::object& request, std::vector<int> expect) {
        auto with_401 = expect;
        with_401.push_back(401);
        auto r = api().call(op, request, with_401, false);
        if (r.status == 401) {  // token expired or the secret changed: log in once more
            authenticate();
            r = api().call(op, request, expect, false);
        }
        boost::system::error_code ec;
        r.json = json::parse(r.body, ec);
        if (ec && !r.body.empty()) throw panelkit::bad_response(kPanel, op, "the body is not JSON", r);
        return r;
    }

    void create_owner() {
        const std::string out = launcher_->run_capture(temp_key_command_, "generate-temp-key", 60000);
        std::smatch m;
        if (!std::regex_search(out, m, std::regex(R"(Temp key: (\S+))")))
            throw Error(STAND_E_BAD_RESPONSE, "pasarguard: generate-temp-key printed no 'Temp key:' line: " +
                                                  panelkit::excerpt(out));
        auto c = credentials();
        auto r = api().call("setup owner",
                            {{"method", "POST"},
                             {"url", url("/api/setup/owner")},
                             {"json", {{"key", m[1].str()}, {"username", c.username}, {"password", c.password}}}},
                            {201, 409}, false);
        (void)r;  // 409: an owner exists already (a data dir from an earlier run); log in below
        std::ofstream(owner_marker()) << "created\n";
    }

    void authenticate() {
        auto c = credentials();
        auto& a = api();
        a.remove_header("Authorization");
        auto r = a.call("login",
                        {{"method", "POST"},
                         {"url", url("/api/admin/token")},
                         {"form", {{"username", c.username}, {"password", c.password}}}},
                        {200, 401, 403}, false);
        if (r.status != 200) throw panelkit::bad_response(kPanel, "login", "wrong credentials for admin '" + c.username + "'", r);
        boost::system::error_code ec;
        auto v = json::parse(r.body, ec);
        if (ec) throw panelkit::bad_response(kPanel, "login", "the body is not JSON", r);
        a.set_header("Authorization", "Bearer " + panelkit::string_member(v, kPanel, "login", {"access_token"}));
    }

    long long find_or_create_group() {
        auto list = call("list groups", {{"method", "GET"}, {"url", url("/api/groups")}}, {200});
        if (const auto* groups = items(list.json, "groups"))
            for (const auto& g : *groups)
                if (const auto* o = g.if_object(); o && o->contains("name") && o->at("name") == kGroup)
                    return std::stoll(panelkit::id_member(g, kPanel, "list groups", {"id"}));
        auto r = call("create group",
                      {{"method", "POST"},
                       {"url", url("/api/group")},
                       {"json", {{"name", kGroup}, {"inbound_tags", json::array{kInboundTag}}}}},
                      {201});
        return std::stoll(panelkit::id_member(r.json, kPanel, "create group", {"id"}));
    }

    void ensure_host() {
        auto list = call("list hosts", {{"method", "GET"}, {"url", url("/api/hosts")}}, {200});
        if (const auto* hosts = items(list.json, "hosts"))
            for (const auto& h : *hosts)
                if (const auto* o = h.if_object(); o && o->contains("remark") && o->at("remark") == kHostRemark) return;
        // The trailing slash matters: without it the panel answers 307.
        call("create host",
             {{"method", "POST"},
              {"url", url("/api/host/")},
              {"json", {{"remark", kHostRemark},
                        {"address", json::array{"node1.bench.test"}},
                        {"inbound_tag", kInboundTag},
                        {"port", 1080},
                        {"priority", 1}}}},
             {201});
    }

    void require_bootstrap(const char* what) const {
        if (!group_id_) throw Error(STAND_E_BAD_STATE, std::string("pasarguard: ") + what + " before bootstrap");
    }

    json::object subscription(const std::string& sub_url) const {
        return {{"method", "GET"},
                {"url", panelkit::resolve_url(origin() + "/", sub_url)},
                {"headers", {{"User-Agent", "v2rayN/7.5.0"}}}};
    }

    std::string compose_yaml() const {
        return "services:\n"
               "  pasarguard:\n"
               "    image: " + image_ + "\n"
               "    container_name: stand_pasarguard\n"
               "    cgroup_parent: ${STAND_CGROUP_PARENT}\n"
               "    network_mode: host\n"
               "    environment:\n"
               "      UVICORN_HOST: \"" + host_name_ + "\"\n"
               "      UVICORN_PORT: \"" + std::to_string(port_) + "\"\n"
               "      SQLALCHEMY_DATABASE_URL: \"sqlite+aiosqlite:////var/lib/pasarguard/db.sqlite3\"\n"
               "    volumes:\n"
               "      - \"${data_dir}:/var/lib/pasarguard\"\n";
    }

    stand::cpp::Host host_;
    std::string host_name_;
    int port_ = 8000;
    panelkit::Credentials given_;
    std::string image_;
    std::vector<std::string> temp_key_command_;
    std::unique_ptr<panelkit::Launcher> launcher_;
    std::unique_ptr<panelkit::AdminApi> api_;
    std::optional<long long> group_id_;
    std::map<std::string, std::string> users_;  // id -> subscription_url as the panel gave it
};

}  // namespace

STAND_CPP_PLUGIN(PasarGuard, "pasarguard", "PasarGuard", "0.1.0",
                 "PasarGuard panel: docker compose (or a given command) in the measured box; Shadowsocks users.",
                 R"json({"type":"object","additionalProperties":false,"properties":{
                     "mode":{"enum":["native","docker"],"default":"docker"},
                     "command":{"type":"array","items":{"type":"string"},
                                "description":"native: the command that starts the panel; ${data_dir} ${port} ${listen} expanded"},
                     "env":{"type":"object","additionalProperties":{"type":"string"}},
                     "temp_key_command":{"type":"array","items":{"type":"string"},
                                         "description":"prints 'Temp key: <key>'; default pasarguard-cli generate-temp-key (docker: via docker exec)"},
                     "docker":{"type":"string","default":"docker"},
                     "image":{"type":"string","default":"pasarguard/panel:v5.4.1"},
                     "box":{"type":"string","default":"measured"},
                     "host":{"type":"string","default":"127.0.0.1"},
                     "port":{"type":"integer","minimum":1,"maximum":65535,"default":8000},
                     "username":{"type":"string","default":"benchadmin"},
                     "password":{"type":"string","description":"generated to the panel's policy and kept 0600 when absent; never logged"}}})json")
