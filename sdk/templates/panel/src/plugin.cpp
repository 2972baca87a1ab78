// %%name%%: a panel adapter (stand.lifecycle/1 + stand.panel/1) on the SDK's
// panel kit (made by `stand new adapter`). PanelPlugin runs the panel's
// processes in the measured box (install, start, stop, restart, wipe, facts:
// <stand/kits/panel/panel_lifecycle.hpp> says which hooks each runs) and
// calls the hooks below for the panel calls; AdminApi makes each admin call
// through the host's HTTP client and turns an undocumented answer into an
// error naming the panel, the call, the status and the body; the
// credentials are generated once and kept 0600.
//
// The calls below are those of the test double in double/panel_double.py,
// which is NOT a panel: replace them with the ones your panel documents
// (and add docker mode, TOTP or a first-start CLI from the kit as it needs).
#include <stand/kits/panel/admin_api.hpp>
#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/panel_plugin.hpp>
#include <stand/kits/panel/url.hpp>

#include <stand/stand.hpp>

#include <map>
#include <memory>

namespace {

namespace json = boost::json;
using stand::cpp::ConfigError;
using stand_panel_kit::Reply;

constexpr const char* kPanel = "%%name%%";

// The config, declared once (stand/cpp/config_spec.hpp): the constructor
// reads these keys and the descriptor's JSON Schema is written from them.
const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_panel_kit::declare_launch_keys(s, stand_panel_kit::RunMode::native);
        s.key("mode").one_of({"native"}).describe("this adapter runs its panel natively only");
        s.key("command").describe("starts the panel (needed); ${data_dir} ${listen} ${port} ${inbound_port} expanded");
        s.string("host", "the address the panel binds").by_default("127.0.0.1");
        s.integer("port", "the panel's admin API port").range(1, 65535).by_default(8080);
        s.integer("inbound_port", "the TCP port of the users' links (the panel's core)").range(1, 65535).by_default(8443);
        stand_panel_kit::declare_credential_keys(s, "standadmin", "the admin login", "the admin password");
        return s;
    }();
    return spec;
}

class %%Class%% : public stand_panel_kit::PanelPlugin {
public:
    %%Class%%(const stand::cpp::Host& host, const json::object& config) : PanelPlugin(host, kPanel) {
        auto cfg = config_spec().read(config);
        auto launch = stand_panel_kit::read_launch_config(cfg);
        listen_ = cfg.string("host");
        port_ = static_cast<int>(cfg.integer("port"));
        inbound_port_ = static_cast<int>(cfg.integer("inbound_port"));
        given_ = stand_panel_kit::read_given_credentials(cfg);
        cfg.finish();
        if (launch.command.empty())
            throw ConfigError("config.command: the panel's command line is needed (${data_dir} ${listen} ${port} "
                              "${inbound_port} are expanded)");
        // A panel with a database, a cache or a node beside it declares them
        // all instead (launch.processes, <stand/kits/panel/panel_process.hpp>);
        // PostgreSQL, MariaDB and Redis are one line each, on unix sockets in
        // the data dir (<stand/kits/panel/companions.hpp>):
        //   const auto db = stand_panel_kit::add_mariadb(launch.processes, {.database = "panel"});
        //   const auto cache = stand_panel_kit::add_redis(launch.processes);
        //   auto panel = stand_panel_kit::command_process(launch);  // config.command, env, working_dir
        //   panel.env.insert({{"DATABASE_URL", db.url}, {"REDIS_URL", cache.url}});
        //   launch.processes.push_back(panel);
        // The kit starts them in order, waits for each, stops them in reverse,
        // and names the one that died.
        PanelPlugin::launch(std::move(launch),
                               {{"listen", listen_}, {"port", std::to_string(port_)},
                                {"inbound_port", std::to_string(inbound_port_)}},
                               "config.command runs the panel");
    }

    // --- lifecycle (the rest is the kit's)
    json::object readiness() override {
        // The admin API answers, and the core's port accepts connections.
        return {{"method", "GET"},
                {"url", url("/health")},
                {"expect_status", json::array{200}},
                {"also", json::array{json::object{{"tcp", listen_ + ":" + std::to_string(inbound_port_)}}}}};
    }

private:
    // --- panel calls (PanelPlugin's hooks)
    void bootstrap_hook() override {
        const auto c = credentials();
        // 201: the admin is created now; 409: it exists (a restart, a second instance).
        api().call("setup", {{"method", "POST"}, {"url", url("/api/setup")},
                             {"json", {{"username", c.username}, {"password", c.password}}}},
                   {201, 409});
        sign_in(api());
    }

    json::object create_user_hook(const std::string& name) override {
        auto r = call("create user", {{"method", "POST"}, {"url", url("/api/users")}, {"json", {{"name", name}}}},
                      {201, 409});
        if (r.status == 409) throw stand_panel_kit::bad_response(kPanel, "create user", "the name " + name + " is taken", r);
        const auto id = stand_panel_kit::id_member(r.json, kPanel, "create user", {"id"});
        const auto sub = stand_panel_kit::string_member(r.json, kPanel, "create user", {"subscription_url"});
        subscriptions_[id] = sub;
        return {{"name", name}, {"id", id}, {"subscription", subscription(sub)},
                {"tunnel_auth", stand_panel_kit::string_member(r.json, kPanel, "create user", {"password"})}};
    }

    void delete_user_hook(const std::string& user_id) override {
        auto r = call("delete user", {{"method", "DELETE"}, {"url", url("/api/users/" + user_id)}}, {204, 404});
        subscriptions_.erase(user_id);
        if (r.status == 404)
            throw stand::cpp::Error(STAND_E_NOT_FOUND, std::string(kPanel) + ": delete user: no user " + user_id);
    }

    void admin_call_hook() override { call("list users", {{"method", "GET"}, {"url", url("/api/users?limit=1")}}, {200}); }

    json::object subscription_request_hook(const std::string& user_id) override {
        if (auto it = subscriptions_.find(user_id); it != subscriptions_.end()) return subscription(it->second);
        auto r = call("read user", {{"method", "GET"}, {"url", url("/api/users/" + user_id)}}, {200, 404});
        if (r.status == 404)
            throw stand::cpp::Error(STAND_E_NOT_FOUND, std::string(kPanel) + ": read user: no user " + user_id);
        return subscription(stand_panel_kit::string_member(r.json, kPanel, "read user", {"subscription_url"}));
    }

    void wipe_hook() override {
        subscriptions_.clear();
        api_.reset();
    }

    json::object facts_hook() override {
        return {{"listen", listen_}, {"port", port_}, {"inbound_port", inbound_port_}};
    }

    std::string url(const std::string& path) const { return "http://" + listen_ + ":" + std::to_string(port_) + path; }

    stand_panel_kit::Credentials credentials() const {
        return stand_panel_kit::load_or_create_credentials(host(), credentials_file(), given_);
    }

    // A refused session (401: the panel restarted and forgot it) signs in once more.
    stand_panel_kit::AdminApi& api() {
        if (api_) return *api_;
        api_ = std::make_unique<stand_panel_kit::AdminApi>(host(), kPanel, url(""), json::object{{"cookies", false}});
        api_->on_refused([this](stand_panel_kit::AdminApi& a) { sign_in(a); });
        return *api_;
    }

    // A panel whose admin API takes a key or token instead declares it
    // (stand_panel_kit::declare_api_key(s, "api_key", "...", false)) and sets
    // its header once: api.set_header("X-API-Key", key); compat's target then
    // gives {"api_key": "wrong"} as "wrong_credentials".
    void sign_in(stand_panel_kit::AdminApi& a) {
        const auto c = credentials();
        a.remove_header("Authorization");
        auto r = a.call("login", {{"method", "POST"}, {"url", url("/api/login")},
                                  {"json", {{"username", c.username}, {"password", c.password}}}},
                        {200, 401});
        if (r.status == 401)
            throw stand_panel_kit::bad_response(kPanel, "login", "wrong credentials for admin '" + c.username + "'", r);
        a.set_header("Authorization", "Bearer " + stand_panel_kit::string_member(r.json, kPanel, "login", {"token"}));
    }

    Reply call(const std::string& operation, const json::object& request, std::vector<int> expect) {
        return api().call(operation, request, std::move(expect));
    }

    json::object subscription(const std::string& sub_url) const {
        return stand_panel_kit::subscription_get(stand_panel_kit::resolve_url(url("/"), sub_url));
    }

    std::string listen_;
    int port_ = 8080;
    int inbound_port_ = 8443;
    stand_panel_kit::Credentials given_;
    std::unique_ptr<stand_panel_kit::AdminApi> api_;
    std::map<std::string, std::string> subscriptions_;  // user id -> subscription_url as the panel gave it
};

}  // namespace

STAND_CPP_PLUGIN(%%Class%%, "%%name%%", "%%name%%", "0.1.0",
                 "A panel adapter made by `stand new adapter` (admin API of its test double, to replace).",
                 config_spec())
