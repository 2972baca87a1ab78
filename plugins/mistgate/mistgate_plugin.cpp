// Mistgate (Mistgate/mistgate), on the panel kit: the panel binary (or
// anything that behaves like it, e.g. the test double) in the box, or docker
// compose, with its node agent beside it (mistgate_deployment.hpp).
//
// Setup runs once per data dir: `mistgate setup` prints the admin URL and a
// one-time setup link (or, with "setup_command": [], the serve process prints
// them; mistgate_setup.hpp). bootstrap creates the owner, a hysteria2 profile,
// a node enrollment, an inbound and the group "everyone", then enrolls and
// runs the node agent until the probe user's link has a server line
// (mistgate_provision.hpp). Later instances, and the same one when its session
// is gone, sign in again with PasswordLogin (password + a fresh TOTP code:
// mistgate_codes.hpp); a step-up is done only when the panel asks for one.
// Users get their subscription URL from CreateUser; they are switched off and
// on, given a quota and read for their traffic through UserService too
// (mistgate_users.hpp, ABI 1.3). What the admin UI's Overview polls is
// described with a sign-in of its own (mistgate_dashboard.hpp, ABI 1.4).
#include "mistgate_api.hpp"
#include "mistgate_codes.hpp"
#include "mistgate_config.hpp"
#include "mistgate_dashboard.hpp"
#include "mistgate_deployment.hpp"
#include "mistgate_provision.hpp"
#include "mistgate_users.hpp"

#include <stand/kits/panel/panel_plugin.hpp>
#include <stand/kits/panel/url.hpp>

#include <map>
#include <memory>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;
using namespace stand_mistgate;

class Mistgate : public stand_panel_kit::PanelPlugin {
public:
    Mistgate(const stand::cpp::Host& host, const json::object& config) : PanelPlugin(host, kPanel), o_(read_options(config)) {
        auto lc = o_.launch;
        if (lc.mode == stand_panel_kit::RunMode::native) lc.processes.push_back(stand_panel_kit::command_process(lc));
        if (!o_.node_command.empty()) lc.processes.push_back(node_process(o_.node_command, lc));
        lc.project = "standmistgate";
        lc.container = "stand_mistgate";
        launch(std::move(lc), {{"port", std::to_string(o_.port)}, {"listen", o_.host}, {"agent_port", std::to_string(o_.agent_port)}},
               "config.command (or mode/docker) names the Mistgate panel; config.node_command its node agent ([] runs "
               "no agent, and bootstrap then needs a node that already serves)");
        launcher().set_compose(compose_file(o_.image, o_.host, o_.port, o_.agent_port));
    }

    json::object readiness() override {
        return {{"method", "GET"}, {"url", panel_url() + "/"}, {"expect_status", json::array{200}}, {"per_try_timeout_ms", 2000}};
    }

private:
    void start_hook() override {
        if (!o_.setup_command.empty() && load_state(state_file()).admin_url.empty()) provisioning().run_setup();
    }

    void wipe_hook() override {
        // With setup combined with serve, the panel's log holds the setup link: it goes with the data.
        if (o_.setup_command.empty()) fs::remove(launcher().processes().log_file("panel"));
        client_.reset();
        provisioning_.reset();
        users_.clear();
        group_id_.clear();
    }

    json::object facts_hook() override {
        json::object f{{"state_file", state_file().string()},
                       {"node_command", json::value_from(o_.node_command.empty() ? o_.node_command : launcher().processes().processes().back().argv)},
                       {"node_running", launcher().processes().running("node")},
                       {"setup", o_.setup_command.empty() ? "combined with serve (Admin URL / Setup link read from its output)"
                                                          : "separate command, once per data dir"}};
        if (!o_.setup_command.empty()) f["setup_command"] = json::value_from(expanded(o_.setup_command));
        try {
            add_state_facts(f, load_state(state_file()));
        } catch (const Error&) {
            // an unreadable state file: facts without it
        }
        return f;
    }

    void bootstrap_hook() override {
        auto& p = provisioning();
        group_id_ = p.run(client(p.admin_state()));
    }

    json::object create_user_hook(const std::string& name) override {
        auto& c = *client_;
        const std::string op = "UserService/CreateUser";
        auto r = c.call_reply(op, {{"name", name}, {"groupId", group_id_}});
        if (r.status() == 409 && r.code == "already_exists")
            throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": " + op + ": duplicate user: a user named '" + name +
                                                  "' already exists (HTTP 409 " + r.code + (r.message.empty() ? "" : ": " + r.message) + ")");
        if (!r.ok()) fail(op, r);
        const std::string id = stand_panel_kit::id_member(r.json(), kPanel, op, {"user", "id"});
        std::string url;
        if (const auto* u = r.json().as_object().if_contains("subscriptionUrl"); u && u->is_string()) url = std::string(u->as_string());
        url = url.empty() ? provisioning().link_of(c, id) : provisioning().absolute(url);
        users_[id] = url;
        return {{"name", name}, {"id", id}, {"subscription", stand_panel_kit::subscription_get(url)}};
    }

    void delete_user_hook(const std::string& id) override {
        client_->call("UserService/DeleteUsers", {{"userIds", json::array{id.c_str()}}});
        users_.erase(id);
    }

    void admin_call_hook() override { client_->call("UserService/ListUsers", {{"pageSize", 1}}); }

    void set_user_enabled_hook(const std::string& id, bool enabled) override {
        if (!stand_mistgate::set_user_enabled(*client_, id, enabled))
            throw Error(STAND_E_NOT_FOUND, "mistgate: set_user_enabled: no user " + id);
    }

    void set_user_quota_hook(const std::string& id, std::uint64_t quota_bytes) override {
        if (!stand_mistgate::set_user_quota(*client_, id, quota_bytes))
            throw Error(STAND_E_NOT_FOUND, "mistgate: set_user_quota: no user " + id);
    }

    json::object user_traffic_hook(const std::string& id) override {
        const auto used = stand_mistgate::used_bytes(*client_, id);
        if (!used) throw Error(STAND_E_NOT_FOUND, "mistgate: user_traffic: no user " + id);
        return {{"total_bytes", *used}};  // Mistgate's usedBytes is one count, up and down together
    }

    // The Overview's polls (mistgate_dashboard.hpp), with a sign-in of their own.
    std::vector<stand_panel_kit::DashboardRequest> dashboard_requests_hook() override { return overview_polls(*client_); }

    json::object subscription_request_hook(const std::string& id) override {
        auto& c = *client_;
        auto it = users_.find(id);
        if (it == users_.end()) it = users_.emplace(id, provisioning().link_of(c, id)).first;
        return stand_panel_kit::subscription_get(it->second);
    }

    fs::path state_file() const { return data_dir() / "stand-adapter-state.json"; }
    std::string panel_url() const { return "http://" + o_.host + ":" + std::to_string(o_.port); }

    std::vector<std::string> expanded(const std::vector<std::string>& argv) const {
        std::vector<std::string> out;
        for (const auto& a : argv) out.push_back(launcher().expand(a));
        return out;
    }

    Provisioning& provisioning() {
        if (provisioning_) return *provisioning_;
        NodeAgent node{!o_.node_command.empty(),
                       [this](const InstallCommand& i) {
                           launcher().run_capture(enroll_argv(o_.node_command, i, kNodeStateDir), "enroll with the panel", 60000);
                       },
                       [this] { launcher().processes().start_process("node"); }, o_.node_ready_s,
                       launcher().processes().log_file("node").string()};
        Setup setup{o_.setup_command.empty() ? std::function<std::string()>() : [this] {
                        return launcher().run_capture(o_.setup_command, "mistgate setup", 120000);
                    },
                    launcher().processes().log_file("panel")};
        provisioning_ = std::make_unique<Provisioning>(host(), state_file(), panel_url(), std::move(setup), o_.totp_step,
                                                       std::move(node));
        return *provisioning_;
    }

    Client& client(const State& st) {
        if (client_) return *client_;
        const auto creds = stand_panel_kit::load_or_create_credentials(host(), credentials_file(), o_.given);
        std::string admin = provisioning().absolute(st.admin_url);
        if (admin.back() != '/') admin += '/';
        client_ = std::make_unique<Client>(host(), admin, creds.username, creds.password,
                                           [this] { return next_code(host(), state_file()); });
        return *client_;
    }



    Options o_;
    std::unique_ptr<Provisioning> provisioning_;
    std::unique_ptr<Client> client_;
    std::string group_id_;
    std::map<std::string, std::string> users_;  // user id -> absolute subscription URL
};

}  // namespace

STAND_CPP_PLUGIN(Mistgate, kPanel, "Mistgate", "0.2.0",
                 "Mistgate panel: native binary or docker compose in the measured box; owner setup with TOTP, "
                 "hysteria2 profile, users in one group.",
                 stand_mistgate::config_spec())
