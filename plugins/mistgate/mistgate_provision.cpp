#include "mistgate_provision.hpp"

#include "mistgate_codes.hpp"
#include "mistgate_setup.hpp"

#include <stand/kits/panel/file_text.hpp>
#include <stand/kits/panel/totp.hpp>
#include <stand/kits/panel/url.hpp>

namespace stand_mistgate {

namespace json = boost::json;
using stand::cpp::Error;

namespace {

// The node record bootstrap enrolls (a documentation address: no node runs there).
constexpr const char* kNodeName = "bench1";
constexpr const char* kNodeAddress = "203.0.113.10";
constexpr const char* kNodeCountry = "DE";
// The user whose link shows that the node serves.
constexpr const char* kProbeUser = "stand-probe";
constexpr const char* kNoNode = "no node connected: Mistgate serves empty subscriptions until one does";

std::string text_of(const json::value& v, const char* key) {
    const auto* o = v.if_object();
    const auto* m = o ? o->if_contains(key) : nullptr;
    return m && m->is_string() ? std::string(m->as_string()) : std::string();
}

}  // namespace

void mark_secrets(const stand::cpp::Host& host, const State& st) {
    host.mark_secret(st.setup_token);
    host.mark_secret(st.totp_secret);
    if (!st.admin_url.empty()) host.mark_secret(stand_panel_kit::path_of(st.admin_url));
}

Provisioning::Provisioning(const stand::cpp::Host& host, std::filesystem::path state_file, std::string panel_url,
                           Setup setup, unsigned totp_step, NodeAgent node)
    : host_(host), state_file_(std::move(state_file)), panel_url_(std::move(panel_url)), setup_(std::move(setup)),
      totp_step_(totp_step), node_(std::move(node)) {}

void Provisioning::run_setup() {
    const auto t0 = host_.monotonic_ns();
    const auto out = parse_setup_output(setup_.command());
    const double seconds = static_cast<double>(host_.monotonic_ns() - t0) / 1e9;
    if (out.admin_url.empty() || out.setup_token.empty())
        throw Error(STAND_E_BAD_RESPONSE, "mistgate: setup printed no 'Admin URL:' and 'Setup link: ...#TOKEN' lines");
    update_state([&](State& s) {
        s.admin_url = out.admin_url;
        s.setup_token = out.setup_token;
        if (!s.setup_s) s.setup_s = seconds;
    });
    host_.info("mistgate: setup took " + std::to_string(seconds) + " s");
}

State Provisioning::admin_state() {
    auto st = load_state(state_file_);
    mark_secrets(host_, st);
    if (!st.admin_url.empty()) return st;
    if (setup_.command) throw Error(STAND_E_BAD_STATE, "mistgate: bootstrap before start: the admin URL is not known yet");
    SetupOutput out;
    // The panel prints the lines before it serves, so they are there once it is ready; allow a little slack.
    for (int i = 0; i < 50 && (out = parse_setup_output(stand_panel_kit::read_text(setup_.serve_log))).admin_url.empty(); ++i)
        host_.sleep_ms(100);
    if (out.admin_url.empty())
        throw Error(STAND_E_BAD_RESPONSE, "mistgate: the panel printed no 'Admin URL:' line in " + setup_.serve_log.string());
    update_state([&](State& s) {
        s.admin_url = out.admin_url;
        if (!s.owner) s.setup_token = out.setup_token;
    });
    return load_state(state_file_);
}

std::string Provisioning::absolute(const std::string& url) const { return panel_url_ + stand_panel_kit::path_of(url); }

void Provisioning::update_state(const std::function<void(State&)>& change) const {
    auto st = load_state(state_file_);
    change(st);
    save_state(state_file_, st);
    mark_secrets(host_, st);
}

std::string Provisioning::run(Client& c) {
    auto st = load_state(state_file_);
    if (!st.owner) {
        set_up_owner(c, st);
    } else if (!c.logged_in()) {
        c.password_login();
    } else {
        c.call("UserService/ListUsers", {{"pageSize", 1}});  // signs in again when the session is gone
    }
    st = load_state(state_file_);
    if (st.profile_id.empty()) {
        const std::string op = "ProfileService/CreateProfile";
        auto p = c.call(op, {{"protocol", "hysteria2"}, {"name", "main"}, {"settingsJson", hysteria2_settings(c)}});
        st.profile_id = stand_panel_kit::id_member(p, kPanel, op, {"profile", "id"});
        update_state([&](State& s) { s.profile_id = st.profile_id; });
    }
    if (st.node_id.empty()) {
        auto n = create_enrollment(c, {{"name", kNodeName}, {"address", kNodeAddress}, {"countryCode", kNodeCountry}});
        st.node_id = stand_panel_kit::id_member(n, kPanel, "NodeService/CreateEnrollment", {"node", "id"});
        update_state([&](State& s) { s.node_id = st.node_id; });
    }
    if (st.inbound_id.empty()) {
        const std::string op = "ProfileService/CreateInbound";
        auto i = c.call(op, {{"profileId", st.profile_id}, {"nodeId", st.node_id}});
        st.inbound_id = stand_panel_kit::id_member(i, kPanel, op, {"inbound", "id"});
        update_state([&](State& s) { s.inbound_id = st.inbound_id; });
    }
    if (st.group_id.empty()) {
        const std::string op = "GroupService/CreateGroup";
        auto g = c.call(op, {{"name", "everyone"}, {"profileIds", json::array{st.profile_id.c_str()}}});
        st.group_id = stand_panel_kit::id_member(g, kPanel, op, {"group", "id"});
        update_state([&](State& s) { s.group_id = st.group_id; });
    }
    connect_node(c, st.group_id);
    return st.group_id;
}

// BeginSetup / FinishSetup (the owner with password + TOTP), which signs the client in.
void Provisioning::set_up_owner(Client& c, const State& st) {
    if (st.setup_token.empty())
        throw Error(STAND_E_BAD_STATE, "mistgate: the panel has no owner but no setup token is known (the data dir "
                                       "was set up without this adapter's state file; wipe it)");
    const std::string begin = "AuthService/BeginSetup";
    std::string token = st.setup_token;
    auto begin_setup = [&] {
        return c.rpc(begin, {{"setupToken", token}, {"displayName", "Bench owner"}, {"method", "SETUP_METHOD_PASSWORD"},
                             {"login", c.login_name()}, {"password", c.password()}});
    };
    auto r = begin_setup();
    if (r.status() == 403 && setup_.command) {
        // The link lives 30 minutes; `mistgate setup` issues a new one while no owner exists.
        host_.info("mistgate: the setup link was refused (expired or used); running setup again for a new one");
        run_setup();
        token = load_state(state_file_).setup_token;
        r = begin_setup();
    }
    if (!r.ok())
        fail(begin, r, r.status() != 403 ? "setup refused"
                       : setup_.command  ? "the setup link was refused again after a new setup"
                                         : "the setup link was refused (used, or expired: it lives 30 minutes); setup "
                                           "is combined with serve here, so restart the panel for a new link");
    const std::string uri = text_of(r.json(), "totpUri");
    std::string secret = text_of(r.json(), "totpSecret");
    if (secret.empty()) secret = stand_panel_kit::otpauth_secret(uri);
    if (secret.empty()) fail(begin, r, "the answer has no totpSecret or totpUri secret");
    const unsigned period = otpauth_period(uri);
    const std::string ceremony = stand_panel_kit::string_member(r.json(), kPanel, begin, {"ceremonyId"});
    update_state([&](State& s) {
        s.totp_secret = secret;
        s.totp_step = period ? period : totp_step_;
        s.totp_last_step = -1;
    });
    if (period && period != totp_step_)
        host_.warn("mistgate: the panel's TOTP period is " + std::to_string(period) + " s, config.totp_step_s is " +
                   std::to_string(totp_step_) + " s; using the panel's");
    const std::string finish = "AuthService/FinishSetup";
    auto f = c.rpc(finish, {{"setupToken", token}, {"ceremonyId", ceremony}, {"totpCode", next_code(host_, state_file_)}});
    if (!f.ok()) fail(finish, f, "owner setup refused");
    update_state([&](State& s) {
        s.owner = true;
        s.setup_token.clear();  // single use
    });
    c.signed_in();  // signing in counts as a step-up: none is needed now
    host_.info("mistgate: owner '" + c.login_name() + "' created");
}

// NodeService/CreateEnrollment; keeps the install command (its token works once) for connect_node().
json::value Provisioning::create_enrollment(Client& c, json::object body) {
    const std::string op = "NodeService/CreateEnrollment";
    auto n = c.call(op, std::move(body));
    install_ = parse_install_command(stand_panel_kit::string_member(n, kPanel, op, {"installCommand"}));
    return n;
}

// The hysteria2 defaults of the panel with a self-signed certificate.
std::string Provisioning::hysteria2_settings(Client& c) {
    const std::string op = "ProfileService/ListProtocols";
    auto v = c.call(op, json::object{});
    const auto& protocols = stand_panel_kit::member(v, kPanel, op, {"protocols"});
    if (protocols.is_array())
        for (const auto& p : protocols.as_array()) {
            if (text_of(p, "id") != "hysteria2") continue;
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

std::string Provisioning::link_of(Client& c, const std::string& user_id) {
    const std::string op = "UserService/GetSubscriptionLink";
    const auto link = c.call_for_user(op, {{"userId", user_id}, {"rotate", false}});
    if (!link) throw Error(STAND_E_NOT_FOUND, "mistgate: no user with id '" + user_id + "'");
    return absolute(stand_panel_kit::string_member(*link, kPanel, op, {"url"}));
}

// The probe user's subscription URL (created once, kept in the state file).
std::string Provisioning::probe_url(Client& c, const std::string& group) {
    auto st = load_state(state_file_);
    if (!st.probe_url.empty()) return st.probe_url;
    const std::string op = "UserService/CreateUser";
    auto r = c.call_reply(op, {{"name", kProbeUser}, {"groupId", group}});
    std::string id, url;
    if (r.status() == 409 && r.code == "already_exists") {  // created by a bootstrap that did not record it
        auto list = c.call("UserService/ListUsers", {{"query", kProbeUser}, {"pageSize", 200}});
        if (const auto* users = list.as_object().if_contains("users"); users && users->is_array())
            for (const auto& u : users->as_array())
                if (text_of(u, "name") == kProbeUser) id = stand_panel_kit::id_member(u, kPanel, "UserService/ListUsers", {"id"});
        if (id.empty()) fail(op, r, std::string("'") + kProbeUser + "' exists but ListUsers does not show it");
        url = link_of(c, id);
    } else {
        if (!r.ok()) fail(op, r);
        id = stand_panel_kit::id_member(r.json(), kPanel, op, {"user", "id"});
        const std::string given = text_of(r.json(), "subscriptionUrl");
        url = given.empty() ? link_of(c, id) : absolute(given);
    }
    update_state([&](State& s) {
        s.probe_user_id = id;
        s.probe_url = url;
    });
    return url;
}

// The probe's subscription answers 200 with a body (Mistgate: empty until a node serves).
bool Provisioning::probe_has_lines(const std::string& url) {
    if (!probe_api_) probe_api_ = std::make_unique<stand_panel_kit::AdminApi>(host_, kPanel, panel_url_, json::object{{"cookies", false}});
    json::object request{{"method", "GET"}, {"url", url}, {"headers", {{"User-Agent", "v2rayN/7.5.0"}}}};
    return !probe_api_->call("probe subscription", request, {200}, false).body.empty();
}

// Makes sure a node agent serves: enrolls and runs the configured agent when
// none does yet, then waits for the probe link's server line; fails naming the cause.
void Provisioning::connect_node(Client& c, const std::string& group) {
    const std::string url = probe_url(c, group);
    if (probe_has_lines(url)) return;
    if (!node_.configured)
        throw Error(STAND_E_BAD_STATE, std::string("mistgate: ") + kNoNode +
                                           ". Set config.node_command to the node agent's argv (default "
                                           "[\"mistgate-node\"]) so bootstrap enrolls and runs it, or connect "
                                           "a node to the panel yourself");
    if (!load_state(state_file_).node_enrolled) {
        if (!install_) create_enrollment(c, {{"nodeId", load_state(state_file_).node_id}});  // a new token for the node record
        node_.enroll(*install_);
        install_.reset();
        update_state([](State& s) { s.node_enrolled = true; });
        host_.info("mistgate: node agent enrolled");
    }
    node_.start();
    const auto t0 = host_.monotonic_ns();
    auto waited_s = [&] { return static_cast<int>((host_.monotonic_ns() - t0) / 1000000000ULL); };
    int told = 0;
    while (!probe_has_lines(url)) {
        if (waited_s() >= node_.ready_timeout_s)
            throw Error(STAND_E_TIMEOUT, std::string("mistgate: ") + kNoNode + ": the node agent ran for " +
                                             std::to_string(node_.ready_timeout_s) + " s (config.node_ready_timeout_s) "
                                             "and the probe link stayed empty; its output is in " + node_.log);
        if (waited_s() >= told + 10) {
            told = waited_s();
            host_.info("mistgate: waiting for the node agent to connect (" + std::to_string(told) + " s)");
        }
        // gently: Mistgate allows 60 fetches of a link an hour and caches a rendered link for 10 s
        host_.sleep_ms(waited_s() < 10 ? 1000 : 5000);
    }
    host_.info("mistgate: the node agent serves after " + std::to_string(waited_s()) + " s");
}

}  // namespace stand_mistgate
