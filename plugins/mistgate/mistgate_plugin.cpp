// Mistgate (Mistgate/mistgate): the panel binary (or anything that behaves
// like it, e.g. the test double) spawned into the box, or docker compose with
// the box as cgroup parent (stand.lifecycle/1 + stand.panel/1).
//
// Setup runs once per data dir: `mistgate setup` prints the admin URL and a
// one-time setup link (or, with "setup_command": [], the serve process prints
// them). The link lives 30 minutes; while no owner exists bootstrap re-runs
// setup for a fresh one. bootstrap() creates the owner (BeginSetup /
// FinishSetup with a TOTP code, the __Host-sid session), a hysteria2 profile,
// a node enrollment, an inbound, the group "everyone" and the user
// "stand-probe"; then it enrolls and runs the node agent (mistgate_node.hpp)
// and waits until the probe's subscription has a server line. Later
// instances, and the same one when its session is gone, sign in again with
// PasswordLogin (password + a fresh TOTP code). A step-up is done only when
// the panel asks for one. Users get their subscription URL from CreateUser.
#include "credentials.hpp"
#include "launcher.hpp"
#include "mistgate_api.hpp"
#include "mistgate_node.hpp"
#include "mistgate_state.hpp"
#include "totp.hpp"
#include "url.hpp"

#include <stand/stand.hpp>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand_mistgate::kPanel;
using stand::cpp::ConfigError;
using stand::cpp::Error;

constexpr const char* kUserAgent = "v2rayN/7.5.0";
constexpr const char* kContainerDataDir = "/var/lib/mistgate";
// The node record bootstrap enrolls: the one of Mistgate's own benchmark (its tools/bench/py/bench.py).
constexpr const char* kNodeName = "bench1";
constexpr const char* kNodeAddress = "203.0.113.10";
constexpr const char* kNodeCountry = "DE";
// The user whose link shows that the node serves (a link has a server line only then).
constexpr const char* kProbeUser = "stand-probe";
constexpr const char* kNoNode = "no node connected: Mistgate serves empty subscriptions until one does";

std::string read_file(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The `Admin URL:` and `Setup link: ...#TOKEN` lines as `mistgate setup`
// prints them (the last of each when there are several).
struct SetupOutput {
    std::string admin_url;
    std::string setup_token;
};

SetupOutput parse_setup_output(const std::string& text) {
    auto value_after = [](const std::string& line, const char* label) -> std::optional<std::string> {
        auto at = line.find(label);
        if (at == std::string::npos) return std::nullopt;
        std::istringstream rest(line.substr(at + std::strlen(label)));
        std::string v;
        rest >> v;
        if (v.empty()) return std::nullopt;
        return v;
    };
    SetupOutput out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (auto v = value_after(line, "Admin URL:")) out.admin_url = *v;
        if (auto v = value_after(line, "Setup link:")) {
            auto hash = v->find('#');
            out.setup_token = hash == std::string::npos ? std::string() : v->substr(hash + 1);
        }
    }
    return out;
}

// The "period" parameter of an otpauth:// URI, or 0.
unsigned otpauth_period(const std::string& uri) {
    auto q = uri.find('?');
    while (q != std::string::npos) {
        auto start = q + 1;
        auto end = uri.find('&', start);
        auto param = uri.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (param.rfind("period=", 0) == 0) {
            try {
                auto n = std::stoul(param.substr(7));
                return n > 0 && n <= 3600 ? static_cast<unsigned>(n) : 0U;
            } catch (const std::exception&) {
                return 0;
            }
        }
        q = end;
    }
    return 0;
}

json::array to_array(const std::vector<std::string>& argv) {
    json::array a;
    for (const auto& s : argv) a.emplace_back(s);
    return a;
}

// The config: the launch keys (panel-kit) and Mistgate's own.
const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_panel_kit::declare_launch_keys(
            s, stand_panel_kit::RunMode::native,
            {"mistgate", "serve", "--data-dir", "${data_dir}", "--listen", "${listen}:${port}", "--trusted-proxy",
             "127.0.0.1", "--agent-listen", "${listen}:${agent_port}", "--agent-addr", "${listen}:${agent_port}"});
        s.key("command").describe("native argv of the server; ${data_dir} ${port} ${listen} ${agent_port} are expanded");
        s.string("host", "the address the panel and its agent listener bind (${listen})").by_default("127.0.0.1");
        s.integer("port", "the panel's HTTP port").range(1, 65535).by_default(18080);
        s.integer("agent_port", "the panel's listener for node agents (--agent-listen / --agent-addr)")
            .range(1, 65535)
            .by_default(18081);
        s.strings("node_command",
                  "argv of the node agent; bootstrap runs `<node_command> enroll --panel --sni --ca-sha256 --token "
                  "--state-dir <data dir>/mistgate-node` with the install command the panel returns, then "
                  "`<node_command> run --state-dir ...` in the box (kept running across a panel restart). [] = no "
                  "agent: bootstrap fails unless a node already serves. ${data_dir} ${port} ${listen} ${agent_port} "
                  "are expanded")
            .by_default(json::array{"mistgate-node"});
        s.integer("node_ready_timeout_s",
                  "how long bootstrap waits for the node agent to make the probe subscription non-empty")
            .range(1, 3600)
            .by_default(120);
        stand_panel_kit::declare_credential_keys(s, "benchowner", "owner login (3-64 of a-z 0-9 . _ @ -)",
                                                 "owner password (12-256 bytes)");
        s.integer("totp_step_s", "TOTP period when the panel's otpauth URI names none").range(1, 300).by_default(30);
        s.string("image", "docker mode: an image whose entrypoint is the mistgate binary").by_default("mistgate:0.1.32");
        s.strings("setup_command",
                  "run once per data dir before the first start; prints 'Admin URL:' and 'Setup link: ...#TOKEN'. [] = "
                  "the server prints them itself (read from its output). Default: mistgate setup --data-dir "
                  "${data_dir} --public-url http://localhost:${port}; docker mode: docker run --rm <image> setup");
        return s;
    }();
    return spec;
}

class Mistgate : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Panel {
public:
    Mistgate(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        auto cfg = config_spec().read(config);
        auto launch = stand_panel_kit::read_launch_config(cfg);
        host_name_ = cfg.string("host");
        port_ = static_cast<int>(cfg.integer("port"));
        agent_port_ = static_cast<int>(cfg.integer("agent_port"));
        std::vector<std::string> node_command = cfg.strings("node_command");
        node_ready_s_ = static_cast<int>(cfg.integer("node_ready_timeout_s"));
        given_ = stand_panel_kit::read_given_credentials(cfg);
        totp_step_ = static_cast<unsigned>(cfg.integer("totp_step_s"));
        image_ = cfg.string("image");
        if (auto setup = cfg.optional_strings("setup_command")) {
            setup_command_ = std::move(*setup);
        } else if (launch.mode == stand_panel_kit::RunMode::docker) {
            setup_command_ = {launch.docker, "run", "--rm", "-v", std::string("${data_dir}:") + kContainerDataDir,
                              image_, "setup", "--data-dir", kContainerDataDir, "--public-url",
                              "http://localhost:${port}"};
        } else {
            setup_command_ = {"mistgate", "setup", "--data-dir", "${data_dir}", "--public-url", "http://localhost:${port}"};
        }
        cfg.finish();
        if (given_.username.empty()) throw ConfigError("config.username: must not be empty");
        launch.project = "standmistgate";
        launch.container = "stand_mistgate";
        launcher_ = std::make_unique<stand_panel_kit::Launcher>(host_, kPanel, launch);
        launcher_->set_variable("data_dir", panel_dir().string());
        launcher_->set_variable("port", std::to_string(port_));
        launcher_->set_variable("listen", host_name_);
        launcher_->set_variable("agent_port", std::to_string(agent_port_));
        launcher_->set_compose_text(compose_yaml());
        node_ = std::make_unique<stand_mistgate::NodeAgent>(host_, std::move(node_command), node_dir().string(), launch);
        for (const char* name : {"data_dir", "port", "listen", "agent_port"})
            node_->set_variable(name, launcher_->expand(std::string("${") + name + "}"));
    }

    // --- lifecycle
    stand_result install() override {
        fs::create_directories(panel_dir());
        launcher_->check_installed("config.command (or mode/docker) names the Mistgate panel");
        if (node_->configured()) node_->check_installed();
        return STAND_OK;
    }

    stand_result start() override {
        fs::create_directories(panel_dir());
        if (!setup_command_.empty()) setup_once();
        launcher_->start();
        return STAND_OK;
    }

    stand_result stop() override {
        if (!launcher_->running() && !node_->running()) return STAND_OK_NOTHING_TO_DO;
        node_->stop();
        launcher_->stop();
        return STAND_OK;
    }

    stand_result restart() override {
        // The panel only (as the seed's harness did): the node agent keeps running and reconnects.
        // Sessions survive in the panel's database; a 401 "not signed in" would sign in again.
        launcher_->restart();
        return STAND_OK;
    }

    stand_result wipe() override {
        if (launcher_->running() || node_->running()) throw Error(STAND_E_BAD_STATE, "mistgate: stop before wipe");
        launcher_->wipe();
        std::error_code ec;
        for (const auto& dir : {panel_dir(), node_dir()}) {
            fs::remove_all(dir, ec);
            if (ec) throw Error(STAND_E_IO, "mistgate: cannot remove " + dir.string() + ": " + ec.message());
        }
        fs::remove(serve_output(), ec);  // it holds the setup link when setup is combined with serve
        client_.reset();
        install_.reset();
        users_.clear();
        group_id_.clear();
        return STAND_OK;
    }

    json::object readiness() override {
        return {{"method", "GET"}, {"url", panel_url() + "/"}, {"expect_status", json::array{200}},
                {"per_try_timeout_ms", 2000}};
    }

    json::object facts() override {
        json::object f = launcher_->deployment_facts();
        f["data_dirs"] = json::array{panel_dir().string(), node_dir().string()};
        if (node_->configured()) {
            f["node_command"] = to_array(node_->expanded_command());
            f["node_running"] = node_->running();
        } else {
            f["node_command"] = json::array{};
        }
        json::object more{{"credentials_file", credentials_file().string()},
                       {"state_file", state_file().string()}};
        for (const auto& [k, v] : more) f[k] = v;
        std::vector<std::string> setup;
        for (const auto& a : setup_command_) setup.push_back(launcher_->expand(a));
        f["setup"] = setup_command_.empty() ? "combined with serve (Admin URL / Setup link read from its output)"
                                            : "separate command, once per data dir";
        if (!setup.empty()) f["setup_command"] = to_array(setup);
        try {
            auto st = stand_mistgate::load_state(state_file());
            // The admin path, and the subscription prefix (/<prefix>/<token>).
            json::array secret;
            if (!st.admin_url.empty()) secret.emplace_back(stand_panel_kit::path_of(st.admin_url));
            if (const std::string sub = stand_panel_kit::path_of(st.probe_url); sub.size() > 1)
                secret.emplace_back(sub.substr(0, sub.find('/', 1) + 1));
            if (!secret.empty()) f["secret_path_prefix"] = secret;
            if (st.setup_s) f["setup_s"] = *st.setup_s;
            f["owner_set_up"] = st.owner;
            if (!st.totp_secret.empty()) f["totp_step_s"] = st.totp_step;
            json::object ids;
            for (auto [k, v] : {std::pair{"profile", &st.profile_id}, std::pair{"node", &st.node_id},
                                std::pair{"inbound", &st.inbound_id}, std::pair{"group", &st.group_id}})
                if (!v->empty()) ids[k] = *v;
            if (!ids.empty()) f["ids"] = ids;
        } catch (const Error&) {
            // an unreadable state file: facts without it
        }
        if (auto* cmds = f.if_contains("docker_commands"); cmds && !setup.empty())
            cmds->as_object()["setup"] = json::array{to_array(setup)};
        return f;
    }

    // --- panel
    void bootstrap() override {
        auto st = admin_state();
        auto& c = client(st);
        if (!st.owner) {
            set_up_owner(c, st);
        } else if (!c.logged_in()) {
            c.password_login();
        } else {
            c.call("UserService/ListUsers", {{"pageSize", 1}});  // signs in again when the session is gone
        }
        st = stand_mistgate::load_state(state_file());
        if (st.profile_id.empty()) {
            const std::string op = "ProfileService/CreateProfile";
            auto p = c.call(op, {{"protocol", "hysteria2"}, {"name", "main"}, {"settingsJson", hysteria2_settings(c)}});
            st.profile_id = stand_panel_kit::id_member(p, kPanel, op, {"profile", "id"});
            update_state([&](stand_mistgate::State& s) { s.profile_id = st.profile_id; });
        }
        if (st.node_id.empty()) {
            auto n = create_enrollment(c, {{"name", kNodeName}, {"address", kNodeAddress}, {"countryCode", kNodeCountry}});
            st.node_id = stand_panel_kit::id_member(n, kPanel, "NodeService/CreateEnrollment", {"node", "id"});
            update_state([&](stand_mistgate::State& s) { s.node_id = st.node_id; });
        }
        if (st.inbound_id.empty()) {
            const std::string op = "ProfileService/CreateInbound";
            auto i = c.call(op, {{"profileId", st.profile_id}, {"nodeId", st.node_id}});
            st.inbound_id = stand_panel_kit::id_member(i, kPanel, op, {"inbound", "id"});
            update_state([&](stand_mistgate::State& s) { s.inbound_id = st.inbound_id; });
        }
        if (st.group_id.empty()) {
            const std::string op = "GroupService/CreateGroup";
            auto g = c.call(op, {{"name", "everyone"}, {"profileIds", json::array{st.profile_id.c_str()}}});
            st.group_id = stand_panel_kit::id_member(g, kPanel, op, {"group", "id"});
            update_state([&](stand_mistgate::State& s) { s.group_id = st.group_id; });
        }
        group_id_ = st.group_id;
        connect_node(c);
    }

    json::object create_user(const std::string& name) override {
        auto& c = bootstrapped("create_user");
        const std::string op = "UserService/CreateUser";
        auto r = c.call_reply(op, {{"name", name}, {"groupId", group_id_}});
        if (r.status() == 409 && r.code == "already_exists")
            throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": " + op + ": duplicate user: a user named '" +
                                                  name + "' already exists (HTTP 409 " + r.code +
                                                  (r.message.empty() ? "" : ": " + r.message) + ")");
        if (!r.ok()) stand_mistgate::fail(op, r);
        const std::string id = stand_panel_kit::id_member(r.json(), kPanel, op, {"user", "id"});
        std::string url;
        if (const auto* u = r.json().as_object().if_contains("subscriptionUrl"); u && u->is_string())
            url = std::string(u->as_string());
        url = url.empty() ? link_of(c, id) : absolute(url);
        users_[id] = url;
        return {{"name", name}, {"id", id}, {"subscription", subscription(url)}};
    }

    void delete_user(const std::string& user_id) override {
        auto& c = bootstrapped("delete_user");
        c.call("UserService/DeleteUsers", {{"userIds", json::array{user_id.c_str()}}});
        users_.erase(user_id);
    }

    void admin_call() override {
        auto& c = bootstrapped("admin_call");
        c.call("UserService/ListUsers", {{"pageSize", 1}});
    }

    json::object subscription_request(const std::string& user_id) override {
        auto& c = bootstrapped("subscription_request");
        auto it = users_.find(user_id);
        if (it != users_.end()) return subscription(it->second);
        std::string url = link_of(c, user_id);
        users_[user_id] = url;
        return subscription(url);
    }

private:
    fs::path panel_dir() const { return fs::path(host_.data_dir()) / "mistgate"; }
    fs::path node_dir() const { return fs::path(host_.data_dir()) / "mistgate-node"; }
    fs::path state_file() const { return panel_dir() / "stand-adapter-state.json"; }
    fs::path credentials_file() const { return fs::path(host_.data_dir()) / "mistgate-credentials.json"; }
    fs::path serve_output() const { return fs::path(host_.data_dir()) / "panel.log"; }  // stand_panel_kit::Launcher's
    std::string agent_addr() const { return host_name_ + ":" + std::to_string(agent_port_); }
    std::string panel_url() const { return "http://" + host_name_ + ":" + std::to_string(port_); }
    // A URL the panel returned (its public URL may say "localhost"), on the panel's own origin.
    std::string absolute(const std::string& url) const { return panel_url() + stand_panel_kit::path_of(url); }

    template <class Fn>
    void update_state(Fn&& fn) {
        auto st = stand_mistgate::load_state(state_file());
        fn(st);
        stand_mistgate::save_state(state_file(), st);
        mark_secrets(st);
    }

    // The setup token, the TOTP secret and the secret admin path: never written by the host.
    void mark_secrets(const stand_mistgate::State& st) const {
        host_.mark_secret(st.setup_token);
        host_.mark_secret(st.totp_secret);
        if (!st.admin_url.empty()) host_.mark_secret(stand_panel_kit::path_of(st.admin_url));
    }

    // Runs `mistgate setup` once per data dir.
    void setup_once() {
        if (stand_mistgate::load_state(state_file()).admin_url.empty()) run_setup();
    }

    // Runs `mistgate setup` and remembers what it printed: the admin URL and a fresh setup token.
    void run_setup() {
        std::vector<std::string> argv;
        for (const auto& a : setup_command_) argv.push_back(launcher_->expand(a));
        const fs::path log = fs::path(host_.data_dir()) / "setup.log";
        std::error_code ec;
        fs::remove(log, ec);
        const auto t0 = host_.monotonic_ns();
        {
            stand::cpp::Process p(host_, {{"argv", to_array(argv)}, {"output", log.string()}});
            stand_process_status status{};
            if (!p.wait(120000, status)) {
                p.signal(SIGKILL);
                throw Error(STAND_E_TIMEOUT, "mistgate: `" + argv[0] + " setup` did not finish in 120 s");
            }
            if (status.state != STAND_PROCESS_EXITED || status.exit_code != 0)
                throw Error(STAND_E_IO, "mistgate: `" + argv[0] + " setup` failed (" +
                                            (status.state == STAND_PROCESS_EXITED
                                                 ? "exit code " + std::to_string(status.exit_code)
                                                 : "signal " + std::to_string(status.signal)) +
                                            "); its output is in " + log.string());
        }
        const double seconds = static_cast<double>(host_.monotonic_ns() - t0) / 1e9;
        auto out = parse_setup_output(read_file(log));
        if (out.admin_url.empty() || out.setup_token.empty())
            throw Error(STAND_E_BAD_RESPONSE, "mistgate: `" + argv[0] + " setup` printed no 'Admin URL:' and 'Setup link: ...#TOKEN'"
                                              " lines; its output is in " + log.string());
        fs::remove(log, ec);  // it holds the setup token; the state file (0600) keeps it now
        update_state([&](stand_mistgate::State& s) {
            s.admin_url = out.admin_url;
            s.setup_token = out.setup_token;
            if (!s.setup_s) s.setup_s = seconds;
        });
        host_.info("mistgate: setup took " + std::to_string(seconds) + " s");
    }

    // The state with the admin URL; without a setup command the serve process printed it.
    stand_mistgate::State admin_state() {
        auto st = stand_mistgate::load_state(state_file());
        mark_secrets(st);
        if (!st.admin_url.empty()) return st;
        if (!setup_command_.empty())
            throw Error(STAND_E_BAD_STATE, "mistgate: bootstrap before start: the admin URL is not known yet");
        SetupOutput out;
        // The panel prints the lines before it serves, so they are there once it is ready; allow a little slack.
        for (int i = 0; i < 50; ++i) {
            out = parse_setup_output(read_file(serve_output()));
            if (!out.admin_url.empty()) break;
            sleep_ms(100);
        }
        if (out.admin_url.empty())
            throw Error(STAND_E_BAD_RESPONSE, "mistgate: the panel printed no 'Admin URL:' line in " + serve_output().string());
        update_state([&](stand_mistgate::State& s) {
            s.admin_url = out.admin_url;
            if (!s.owner) s.setup_token = out.setup_token;
        });
        return stand_mistgate::load_state(state_file());
    }

    stand_mistgate::Client& client(const stand_mistgate::State& st) {
        if (!client_) {
            auto creds = stand_panel_kit::load_or_create_credentials(host_, credentials_file(), given_);
            std::string admin = absolute(st.admin_url);
            if (admin.back() != '/') admin += '/';
            client_ = std::make_unique<stand_mistgate::Client>(host_, admin, creds.username, creds.password,
                                                         [this] { return next_code(); });
        }
        return *client_;
    }

    stand_mistgate::Client& bootstrapped(const char* what) {
        if (!client_ || group_id_.empty())
            throw Error(STAND_E_BAD_STATE, std::string("mistgate: ") + what + " before bootstrap");
        return *client_;
    }

    // BeginSetup / FinishSetup (the owner with password + TOTP), then the first step-up.
    void set_up_owner(stand_mistgate::Client& c, const stand_mistgate::State& st) {
        if (st.setup_token.empty())
            throw Error(STAND_E_BAD_STATE, "mistgate: the panel has no owner but no setup token is known (the data dir "
                                           "was set up without this adapter's state file; wipe it)");
        const std::string begin = "AuthService/BeginSetup";
        std::string token = st.setup_token;
        auto begin_setup = [&] {
            return c.rpc(begin, {{"setupToken", token},
                                 {"displayName", "Bench owner"},
                                 {"method", "SETUP_METHOD_PASSWORD"},
                                 {"login", c.login_name()},
                                 {"password", c.password()}});
        };
        auto r = begin_setup();
        if (r.status() == 403 && !setup_command_.empty()) {
            // The link lives 30 minutes; `mistgate setup` issues a new one while no owner exists.
            host_.info("mistgate: the setup link was refused (expired or used); running setup again for a new one");
            run_setup();
            token = stand_mistgate::load_state(state_file()).setup_token;
            r = begin_setup();
        }
        if (!r.ok())
            stand_mistgate::fail(begin, r, r.status() == 403 ? (setup_command_.empty()
                                                              ? "the setup link was refused (used, or expired: it "
                                                                "lives 30 minutes); setup is combined with serve here, "
                                                                "so restart the panel for a new link"
                                                              : "the setup link was refused again after a new setup")
                                                       : "setup refused");
        std::string uri;
        if (const auto* u = r.json().as_object().if_contains("totpUri"); u && u->is_string()) uri = std::string(u->as_string());
        std::string secret;
        if (const auto* s = r.json().as_object().if_contains("totpSecret"); s && s->is_string())
            secret = std::string(s->as_string());
        if (secret.empty()) secret = stand_panel_kit::otpauth_secret(uri);
        if (secret.empty()) stand_mistgate::fail(begin, r, "the answer has no totpSecret or totpUri secret");
        const unsigned period = otpauth_period(uri);
        const std::string ceremony = stand_panel_kit::string_member(r.json(), kPanel, begin, {"ceremonyId"});
        update_state([&](stand_mistgate::State& s) {
            s.totp_secret = secret;
            s.totp_step = period ? period : totp_step_;
            s.totp_last_step = -1;
        });
        if (period && period != totp_step_)
            host_.warn("mistgate: the panel's TOTP period is " + std::to_string(period) + " s, config.totp_step_s is " +
                       std::to_string(totp_step_) + " s; using the panel's");
        const std::string finish = "AuthService/FinishSetup";
        auto f = c.rpc(finish, {{"setupToken", token}, {"ceremonyId", ceremony}, {"totpCode", next_code()}});
        if (!f.ok()) stand_mistgate::fail(finish, f, "owner setup refused");
        update_state([&](stand_mistgate::State& s) {
            s.owner = true;
            s.setup_token.clear();  // single use
        });
        c.signed_in();  // signing in counts as a step-up: none is needed now
        host_.info("mistgate: owner '" + c.login_name() + "' created");
    }

    // NodeService/CreateEnrollment; keeps the install command (its token works once) for connect_node().
    json::value create_enrollment(stand_mistgate::Client& c, json::object body) {
        const std::string op = "NodeService/CreateEnrollment";
        auto n = c.call(op, std::move(body));
        install_ = stand_mistgate::parse_install_command(stand_panel_kit::string_member(n, kPanel, op, {"installCommand"}));
        return n;
    }

    // Makes sure a node agent serves: the probe user's link has a server line (once an agent reported its pin).
    // Enrolls and runs the configured agent when it does not yet; fails naming the cause otherwise.
    void connect_node(stand_mistgate::Client& c) {
        const std::string url = probe_url(c);
        if (probe_has_lines(url)) return;
        if (!node_->configured())
            throw Error(STAND_E_BAD_STATE, std::string("mistgate: ") + kNoNode +
                                               ". Set config.node_command to the node agent's argv (default "
                                               "[\"mistgate-node\"]) so bootstrap enrolls and runs it, or connect "
                                               "a node to the panel yourself");
        auto st = stand_mistgate::load_state(state_file());
        if (!st.node_enrolled) {
            if (!install_) create_enrollment(c, {{"nodeId", st.node_id}});  // a new token for the node record
            node_->enroll(*install_);
            install_.reset();
            update_state([](stand_mistgate::State& s) { s.node_enrolled = true; });
            host_.info("mistgate: node agent enrolled (state in " + node_->state_dir() + ")");
        }
        node_->start();
        const auto t0 = host_.monotonic_ns();
        auto waited_s = [&] { return static_cast<int>((host_.monotonic_ns() - t0) / 1000000000ULL); };
        int told = 0;
        while (!probe_has_lines(url)) {
            if (waited_s() >= node_ready_s_)
                throw Error(STAND_E_TIMEOUT, std::string("mistgate: ") + kNoNode + ": the node agent ran for " +
                                                 std::to_string(node_ready_s_) + " s (config.node_ready_timeout_s) "
                                                 "and the probe link stayed empty; its output is in " +
                                                 serve_output().string());
            if (waited_s() >= told + 10) {
                told = waited_s();
                host_.info("mistgate: waiting for the node agent to connect (" + std::to_string(told) + " s)");
            }
            // gently: Mistgate allows 60 fetches of a link an hour and caches a rendered link for 10 s
            sleep_ms(waited_s() < 10 ? 1000 : 5000);
        }
        host_.info("mistgate: the node agent serves after " + std::to_string(waited_s()) + " s");
    }

    // The probe user's subscription URL (created once, kept in the state file).
    std::string probe_url(stand_mistgate::Client& c) {
        auto st = stand_mistgate::load_state(state_file());
        if (!st.probe_url.empty()) return st.probe_url;
        const std::string op = "UserService/CreateUser";
        auto r = c.call_reply(op, {{"name", kProbeUser}, {"groupId", group_id_}});
        std::string id, url;
        if (r.status() == 409 && r.code == "already_exists") {  // created by a bootstrap that did not record it
            auto list = c.call("UserService/ListUsers", {{"query", kProbeUser}, {"pageSize", 200}});
            if (const auto* users = list.as_object().if_contains("users"); users && users->is_array())
                for (const auto& u : users->as_array())
                    if (u.is_object() && u.as_object().contains("name") && u.as_object().at("name") == kProbeUser)
                        id = stand_panel_kit::id_member(u, kPanel, "UserService/ListUsers", {"id"});
            if (id.empty()) stand_mistgate::fail(op, r, std::string("'") + kProbeUser + "' exists but ListUsers does not show it");
            url = link_of(c, id);
        } else {
            if (!r.ok()) stand_mistgate::fail(op, r);
            id = stand_panel_kit::id_member(r.json(), kPanel, op, {"user", "id"});
            const auto* u = r.json().as_object().if_contains("subscriptionUrl");
            url = u && u->is_string() && !u->as_string().empty() ? absolute(std::string(u->as_string())) : link_of(c, id);
        }
        update_state([&](stand_mistgate::State& s) {
            s.probe_user_id = id;
            s.probe_url = url;
        });
        return url;
    }

    // The probe's subscription answers 200 with a body (Mistgate: empty until a node serves).
    bool probe_has_lines(const std::string& url) {
        if (!probe_api_) probe_api_ = std::make_unique<stand_panel_kit::AdminApi>(host_, kPanel, panel_url(),
                                                                            json::object{{"cookies", false}});
        auto r = probe_api_->call("probe subscription", json::object(subscription(url)), {200}, false);
        return !r.body.empty();
    }

    // The hysteria2 defaults of the panel (ListProtocols' defaultSettingsJson) with a self-signed certificate.
    std::string hysteria2_settings(stand_mistgate::Client& c) {
        const std::string op = "ProfileService/ListProtocols";
        auto v = c.call(op, json::object{});
        const auto& protocols = stand_panel_kit::member(v, kPanel, op, {"protocols"});
        if (protocols.is_array())
            for (const auto& p : protocols.as_array()) {
                const auto* o = p.if_object();
                if (o == nullptr || !o->contains("id") || o->at("id") != "hysteria2") continue;
                std::string text = stand_panel_kit::string_member(p, kPanel, op, {"defaultSettingsJson"});
                boost::system::error_code ec;
                auto settings = json::parse(text.empty() ? "{}" : text, ec);
                if (ec || !settings.is_object())
                    throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": " + op +
                                                          ": hysteria2 defaultSettingsJson is not a JSON object: " +
                                                          stand_panel_kit::excerpt(text));
                settings.as_object()["tls_mode"] = "self_signed";
                return json::serialize(settings);
            }
        throw Error(STAND_E_BAD_RESPONSE, std::string(kPanel) + ": " + op + ": no protocol with id \"hysteria2\": " +
                                              stand_panel_kit::excerpt(json::serialize(v)));
    }

    // GetSubscriptionLink (needs a step-up) for a user this instance did not create.
    std::string link_of(stand_mistgate::Client& c, const std::string& user_id) {
        const std::string op = "UserService/GetSubscriptionLink";
        auto r = c.call_reply(op, {{"userId", user_id}, {"rotate", false}});
        if (r.status() == 404) throw Error(STAND_E_NOT_FOUND, "mistgate: no user with id '" + user_id + "'");
        if (!r.ok()) stand_mistgate::fail(op, r);
        return absolute(stand_panel_kit::string_member(r.json(), kPanel, op, {"url"}));
    }

    json::object subscription(const std::string& url) const {
        return {{"method", "GET"}, {"url", url}, {"headers", {{"User-Agent", kUserAgent}}}};
    }

    // The owner's next unused TOTP code. A code works once: when the current
    // step was used (by any instance: the state file says), wait for the next.
    std::string next_code() {
        for (;;) {
            auto st = stand_mistgate::load_state(state_file());
            if (st.totp_secret.empty())
                throw Error(STAND_E_BAD_STATE, "mistgate: the owner's TOTP secret is not known (setup did not run "
                                               "through this adapter)");
            const auto step = static_cast<std::int64_t>(st.totp_step);
            const auto now_ms = static_cast<std::int64_t>(wall_ns() / 1000000);
            const std::int64_t counter = now_ms / 1000 / step;
            if (counter > st.totp_last_step) {
                std::vector<std::uint8_t> key;
                try {
                    key = stand_panel_kit::base32_decode(st.totp_secret);
                } catch (const std::invalid_argument& e) {
                    throw Error(STAND_E_BAD_RESPONSE, std::string("mistgate: the TOTP secret is not base32: ") + e.what());
                }
                st.totp_last_step = counter;
                stand_mistgate::save_state(state_file(), st);
                return stand_panel_kit::totp_code(key, static_cast<std::uint64_t>(counter * step), st.totp_step);
            }
            // 150 ms into the next step, so both clocks agree it has begun
            sleep_ms((st.totp_last_step + 1) * step * 1000 + 150 - now_ms);
        }
    }

    std::uint64_t wall_ns() const {
        const auto& clock = host_.service<stand_clock_service>(STAND_CLOCK_SERVICE_ID);
        return clock.wall_ns(host_.get());
    }

    void sleep_ms(std::int64_t ms) const {
        if (ms <= 0) return;
        const auto& clock = host_.service<stand_clock_service>(STAND_CLOCK_SERVICE_ID);
        if (clock.sleep_ns(host_.get(), static_cast<std::uint64_t>(ms) * 1000000ULL) == STAND_E_CANCELLED)
            throw Error(STAND_E_CANCELLED, "mistgate: cancelled while waiting for the next TOTP step");
    }

    std::string compose_yaml() const {
        // Host networking: the panel sees loopback peers, as natively (--trusted-proxy 127.0.0.1).
        return "services:\n"
               "  mistgate:\n"
               "    image: " + image_ + "\n"
               "    container_name: stand_mistgate\n"
               "    cgroup_parent: ${STAND_CGROUP_PARENT}\n"
               "    network_mode: host\n"
               "    command: [\"serve\", \"--data-dir\", \"" + std::string(kContainerDataDir) + "\", \"--listen\", \"" +
               host_name_ + ":" + std::to_string(port_) + "\", \"--trusted-proxy\", \"127.0.0.1\", \"--agent-listen\", \"" +
               agent_addr() + "\", \"--agent-addr\", \"" + agent_addr() + "\"]\n"
               "    volumes:\n"
               "      - \"${data_dir}:" + std::string(kContainerDataDir) + "\"\n";
    }

    stand::cpp::Host host_;
    std::string host_name_;
    int port_ = 18080;
    int agent_port_ = 18081;
    int node_ready_s_ = 120;
    unsigned totp_step_ = 30;
    stand_panel_kit::Credentials given_;
    std::string image_;
    std::vector<std::string> setup_command_;
    std::unique_ptr<stand_panel_kit::Launcher> launcher_;
    std::unique_ptr<stand_mistgate::NodeAgent> node_;
    std::optional<stand_mistgate::InstallCommand> install_;  // of the enrollment this instance created, until used
    std::unique_ptr<stand_mistgate::Client> client_;
    std::unique_ptr<stand_panel_kit::AdminApi> probe_api_;
    std::string group_id_;
    std::map<std::string, std::string> users_;  // user id -> absolute subscription URL
};

}  // namespace

STAND_CPP_PLUGIN(Mistgate, "mistgate", "Mistgate", "0.1.0",
                 "Mistgate panel: native binary or docker compose in the measured box; owner setup with TOTP, "
                 "hysteria2 profile, users in one group.",
                 config_spec())
