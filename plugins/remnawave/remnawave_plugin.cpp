// Remnawave (backend 3.x; its source read at 3.3.2): the official
// docker-compose-prod.yml (backend, Postgres, Valkey on a shared unix
// socket) with a generated .env and the box as cgroup parent, or a command
// that starts a backend (built from source, or the test double) spawned
// into the box (stand.lifecycle/1 + stand.panel/1). Every request carries
// X-Forwarded-For and X-Forwarded-Proto: https (the backend refuses others).
// Admin: register once, later log in; an API token is minted from that
// session with X-Remnawave-Client-Type: browser, kept in the data dir and
// reused, replaced (the old one deleted) only when the backend refuses it.
// Users join the default internal squad; a host on its inbound gives each
// user a link. Or Hysteria 2: a config profile with Xray's hysteria inbound
// (a self-signed certificate made in the data dir), an internal squad with
// that inbound, a host pinning the certificate; the links carry the users'
// vlessUuid as their auth.
#include "admin_api.hpp"
#include "credentials.hpp"
#include "hysteria2.hpp"
#include "kept_token.hpp"
#include "panel_lifecycle.hpp"
#include "remnawave_env.hpp"
#include "url.hpp"

#include <stand/stand.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <utility>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::ConfigError;
using stand::cpp::Error;

constexpr const char* kPanel = "remnawave";
constexpr const char* kHostRemark = "stand-host";
// The config profile, its inbound's tag, the squad and the host of Hysteria 2.
constexpr const char* kHysteria2Name = "stand-hysteria2";
constexpr const char* kDefaultProtocol = "default-squad";
// docker: where the backend container sees <data dir>/tls (it reads the
// certificate files when it sends a profile to a node).
constexpr const char* kContainerTls = "/var/lib/stand-tls";
// docker-compose-prod.yml of backend 3.3.2 names postgres:18.4 and
// valkey/valkey:9-alpine; the backend is pinned to the release read here.
constexpr const char* kImage = "remnawave/backend:3.3.2";
constexpr const char* kDbImage = "postgres:18.4";
constexpr const char* kRedisImage = "valkey/valkey:9-alpine";

const json::object& forwarding() {
    static const json::object h{{"X-Forwarded-For", "127.0.0.1"}, {"X-Forwarded-Proto", "https"}};
    return h;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The credential a user's links carry on an inbound of this type.
const char* credential_field(const std::string& inbound_type) {
    if (inbound_type == "shadowsocks") return "ssPassword";
    if (inbound_type == "vless") return "vlessUuid";
    if (inbound_type == "trojan") return "trojanPassword";
    // resolve-proxy-config.service.ts resolveHysteria: auth = the vlessUuid
    // (with a host's vlessRouteId in it; the adapter's hosts have none).
    if (inbound_type == "hysteria") return "vlessUuid";
    return nullptr;
}

// The config: the launch keys (panel-kit, docker by default), the Hysteria 2 keys and Remnawave's own.
const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_panel_kit::declare_launch_keys(s, stand_panel_kit::RunMode::docker);
        s.key("command").describe("native: the command that starts the backend; ${data_dir} ${port} ${listen} expanded");
        s.key("env").describe("native env added to APP_PORT=${port} and SUB_PUBLIC_DOMAIN");
        s.string("image", "docker; beside postgres:18.4 and valkey/valkey:9-alpine").by_default(kImage);
        s.string("host", "docker publishes the API on this address only").by_default("127.0.0.1");
        s.integer("port", "the backend's API port").range(1, 65535).by_default(3000);
        s.string("sub_public_domain", "SUB_PUBLIC_DOMAIN (no scheme); default host:port/api/sub, the backend itself");
        stand_panel_kit::declare_hysteria2_keys(
            s, kDefaultProtocol,
            "default-squad: users join the default squad, links on its first inbound (Shadowsocks on a fresh "
            "panel); hysteria2: a config profile with Xray's hysteria inbound (version 2, TLS with a self-signed "
            "certificate made in <data dir>/tls, no obfuscation), its own squad, a host pinning the certificate "
            "(pinSHA256); tunnel_auth is the user's vlessUuid");
        stand_panel_kit::declare_credential_keys(s, "benchadmin", "the admin login",
                                                 "the admin password (24+ characters when generated)");
        return s;
    }();
    return spec;
}

class Remnawave : public stand::cpp::Instance, public stand_panel_kit::PanelLifecycle, public stand::cpp::Panel {
public:
    Remnawave(const stand::cpp::Host& host, const json::object& config) : PanelLifecycle(host, kPanel) {
        auto cfg = config_spec().read(config);
        const bool own_command = cfg.given("command");
        auto lc = stand_panel_kit::read_launch_config(cfg);
        host_name_ = cfg.string("host");
        port_ = static_cast<int>(cfg.integer("port"));
        given_ = stand_panel_kit::read_given_credentials(cfg);
        image_ = cfg.string("image");
        sub_public_domain_ =
            cfg.optional_string("sub_public_domain").value_or(host_name_ + ":" + std::to_string(port_) + "/api/sub");
        hysteria2_ = stand_panel_kit::read_hysteria2_choice(cfg, "the default squad's inbound keeps its port");
        cfg.finish();
        docker_ = lc.mode == stand_panel_kit::RunMode::docker;
        if (!docker_) {
            if (!own_command)
                throw ConfigError("config.command: Remnawave's documented install is its docker compose (\"mode\": "
                                  "\"docker\"); native mode needs the command that starts a backend built from source");
            // What the backend's config schema reads; the config's env wins.
            std::map<std::string, std::string> env{{"APP_PORT", "${port}"}, {"SUB_PUBLIC_DOMAIN", sub_public_domain_}};
            for (const auto& [k, v] : lc.env) env[k] = v;
            lc.env = env;
        }
        lc.project = "standremna";
        lc.container = "stand_remnawave";
        PanelLifecycle::launch(std::move(lc), {{"port", std::to_string(port_)}, {"listen", host_name_}},
                               docker_ ? "docker mode runs " + image_ + ", " + kDbImage + " and " + kRedisImage
                                       : std::string("config.command starts the backend"));
        launcher().set_compose_text(compose_yaml());
    }

    // --- lifecycle (the rest is PanelLifecycle's)
    json::object readiness() override {
        // This endpoint reads the database: ready means the backend can serve.
        return {{"method", "GET"}, {"url", origin() + "/api/auth/status"}, {"headers", forwarding()},
                {"expect_status", json::array{200}}, {"per_try_timeout_ms", 2000}};
    }

    // --- panel
    void bootstrap() override {
        if (hysteria2_.enabled) return bootstrap_hysteria2();
        auto squads = call("list squads", {{"method", "GET"}, {"url", url("/api/internal-squads")}}, {200});
        const auto& list = stand_panel_kit::member(squads.json, kPanel, "list squads", {"response", "internalSquads"});
        if (!list.is_array() || list.as_array().empty())
            throw stand_panel_kit::bad_response(kPanel, "list squads", "no internal squad", squads);
        // The default squad (made by a migration, with a random uuid) comes first.
        const auto& squad = list.as_array().front();
        const std::string squad_uuid = stand_panel_kit::string_member(squad, kPanel, "list squads", {"uuid"});
        const auto& inbounds = stand_panel_kit::member(squad, kPanel, "list squads", {"inbounds"});
        if (!inbounds.is_array() || inbounds.as_array().empty())
            throw stand_panel_kit::bad_response(kPanel, "list squads", "the default squad has no inbound", squads);
        const auto& inbound = inbounds.as_array().front();
        ensure_host(kHostRemark, {{"inbound", {{"configProfileUuid", stand_panel_kit::string_member(inbound, kPanel, "list squads", {"profileUuid"})},
                                               {"configProfileInboundUuid", stand_panel_kit::string_member(inbound, kPanel, "list squads", {"uuid"})}}},
                                  {"address", "node1.bench.test"},
                                  {"port", 1234}});
        const auto* type = inbound.as_object().if_contains("type");
        const char* field = type && type->is_string() ? credential_field(std::string(type->as_string())) : nullptr;
        tunnel_auth_field_ = field ? field : "";
        squad_ = squad_uuid;
    }

    json::object create_user(const std::string& name) override {
        require_bootstrap("create_user");
        json::object body{{"username", name},
                          {"expireAt", "2099-01-01T00:00:00.000Z"},
                          {"activeInternalSquads", json::array{squad_}}};
        auto r = call("create user", {{"method", "POST"}, {"url", url("/api/users")}, {"json", body}}, {201, 400});
        if (r.status != 201) {
            const auto* o = r.json.if_object();
            const auto* code = o ? o->if_contains("errorCode") : nullptr;
            // users.service.ts maps a unique-username violation to A019 (HTTP 400).
            const bool duplicate = code && *code == "A019";
            throw stand_panel_kit::bad_response(kPanel, "create user", duplicate ? "duplicate user '" + name + "'" : "refused", r);
        }
        const auto& user = stand_panel_kit::member(r.json, kPanel, "create user", {"response"});
        const std::string id = stand_panel_kit::id_member(user, kPanel, "create user", {"id"});
        const std::string sub = stand_panel_kit::string_member(user, kPanel, "create user", {"subscriptionUrl"});
        json::object out{{"name", name}, {"id", id}, {"subscription", subscription(sub)}};
        if (!tunnel_auth_field_.empty())
            out["tunnel_auth"] = stand_panel_kit::string_member(user, kPanel, "create user", {tunnel_auth_field_.c_str()});
        users_[id] = sub;
        return out;
    }

    void delete_user(const std::string& user_id) override {
        require_bootstrap("delete_user");
        auto r = call("delete user", {{"method", "DELETE"}, {"url", url("/api/users/" + user_id)}}, {200, 204, 404});
        users_.erase(user_id);
        if (r.status == 404) throw Error(STAND_E_NOT_FOUND, "remnawave: delete user: no user " + user_id);
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
        return subscription(stand_panel_kit::string_member(r.json, kPanel, "read user", {"response", "subscriptionUrl"}));
    }

private:
    void check_install() override {
        if (!docker_) return;
        check_docker_images({image_, kDbImage, kRedisImage});
        ensure_env();  // compose reads it for every command, `down -v` of a wipe too
    }

    void before_start() override {
        if (docker_) ensure_env();
        // docker: the compose file mounts it (a missing source would be made by the daemon, as root)
        if (docker_ && hysteria2_.enabled) fs::create_directories(data_dir() / "tls");
    }

    void after_restart() override { bearer_set_ = false; }  // the kept token is tried again, then replaced if dead

    void forget() override {
        squad_.clear();
        tunnel_auth_field_.clear();
        users_.clear();
        api_.reset();
        bearer_set_ = false;
    }

    json::object panel_facts() override {
        json::object f{{"listen", host_name_}, {"sub_public_domain", sub_public_domain_}};
        f["protocol"] = hysteria2_.enabled ? "hysteria2" : kDefaultProtocol;
        if (hysteria2_.enabled) {
            f["congestion"] = hysteria2_.congestion.empty() ? "default" : hysteria2_.congestion;
            f["inbound_port"] = hysteria2_.inbound_port;
        }
        if (docker_) {
            f["images"] = json::array{image_, kDbImage, kRedisImage};
            f["env_file"] = env_file().string();
        } else {
            f["listen_note"] = "the backend's app.listen(APP_PORT) binds every interface; only docker mode publishes "
                               "it on the configured address alone";
        }
        return f;
    }

    fs::path env_file() const { return data_dir() / ".env"; }
    fs::path token_file() const { return data_dir() / "stand-api-token.json"; }
    std::string origin() const { return "http://" + host_name_ + ":" + std::to_string(port_); }
    std::string url(const std::string& path) const { return origin() + path; }

    void ensure_env() {
        stand_remnawave::ensure_env_file(env_file(), {host_name_ + ":" + std::to_string(port_), sub_public_domain_});
    }

    stand_panel_kit::Credentials credentials() const {
        return stand_panel_kit::load_or_create_credentials(host(), credentials_file(), given_, "Bn-", "Aa1");
    }

    stand_panel_kit::AdminApi& api() {
        if (!api_) {
            api_ = std::make_unique<stand_panel_kit::AdminApi>(host(), kPanel, origin());
            for (const auto& [k, v] : forwarding()) api_->set_header(std::string(k), std::string(v.as_string()));
        }
        return *api_;
    }

    // A dead API token: 401 when the JWT does not verify (expired, another
    // APP_SECRET), 403 "Forbidden resource" when the JWT guard refuses it
    // (the token was deleted). Other 403s are the backend's "Forbidden" (E000).
    static bool token_refused(const stand_panel_kit::Reply& r) {
        if (r.status == 401) return true;
        if (r.status != 403) return false;
        boost::system::error_code ec;
        auto v = json::parse(r.body, ec);
        const auto* o = ec ? nullptr : v.if_object();
        const auto* m = o ? o->if_contains("message") : nullptr;
        return m && m->is_string() && m->as_string() == "Forbidden resource";
    }

    // One admin call with the API token; a refused token costs one new
    // token (the old one deleted) and one retry.
    stand_panel_kit::Reply call(const std::string& op, const json::object& request, std::vector<int> expect) {
        if (!bearer_set_) use_kept_or_new_token();
        auto with_refusals = expect;
        with_refusals.push_back(401);
        with_refusals.push_back(403);
        auto r = api().call(op, request, with_refusals, false);
        if (!contains(expect, r.status) && token_refused(r)) {
            new_token();
            r = api().call(op, request, expect, false);
        } else if (!contains(expect, r.status)) {
            throw stand_panel_kit::bad_response(kPanel, op, "forbidden", r);
        }
        boost::system::error_code ec;
        r.json = json::parse(r.body, ec);
        if (ec && !r.body.empty()) throw stand_panel_kit::bad_response(kPanel, op, "the body is not JSON", r);
        return r;
    }

    void use_kept_or_new_token() {
        if (auto kept = stand_remnawave::load_kept_token(token_file(), credentials())) {
            api().set_header("Authorization", "Bearer " + kept->token);
            bearer_set_ = true;
            return;
        }
        new_token();
    }

    // Signs in (registering the admin on a fresh backend), mints an API
    // token, deletes the one it replaces and keeps the new one.
    void new_token() {
        auto c = credentials();
        auto& a = api();
        a.remove_header("Authorization");
        bearer_set_ = false;
        auto status = a.call("auth status", {{"method", "GET"}, {"url", url("/api/auth/status")}}, {200});
        const auto& allowed = stand_panel_kit::member(status.json, kPanel, "auth status", {"response", "isRegisterAllowed"});
        const bool register_first = allowed.is_bool() && allowed.as_bool();
        json::object body{{"username", c.username}, {"password", c.password}};
        stand_panel_kit::Reply r;
        if (register_first) {
            r = a.call("register", {{"method", "POST"}, {"url", url("/api/auth/register")}, {"json", body}}, {201});
        } else {
            // A wrong password is 403 "Forbidden" (E000), like any refused login.
            r = a.call("login", {{"method", "POST"}, {"url", url("/api/auth/login")}, {"json", body}}, {200, 401, 403},
                       false);
            if (r.status != 200)
                throw stand_panel_kit::bad_response(kPanel, "login", "wrong credentials for admin '" + c.username + "'", r);
            boost::system::error_code ec;
            r.json = json::parse(r.body, ec);
            if (ec) throw stand_panel_kit::bad_response(kPanel, "login", "the body is not JSON", r);
        }
        const std::string session = stand_panel_kit::string_member(r.json, kPanel, "login", {"response", "accessToken"});
        // API tokens are minted (and deleted) from a dashboard session.
        a.set_header("Authorization", "Bearer " + session);
        a.set_header("X-Remnawave-Client-Type", "browser");
        auto t = a.call("create API token",
                        {{"method", "POST"}, {"url", url("/api/tokens")}, {"json", {{"name", "stand"}, {"expiresInDays", 30}}}},
                        {201});
        stand_remnawave::KeptToken fresh{stand_panel_kit::string_member(t.json, kPanel, "create API token", {"response", "uuid"}),
                                   stand_panel_kit::string_member(t.json, kPanel, "create API token", {"response", "token"})};
        if (auto old = stand_remnawave::load_kept_token(token_file(), c); old && old->uuid != fresh.uuid)
            a.call("delete replaced API token", {{"method", "DELETE"}, {"url", url("/api/tokens/" + old->uuid)}}, {204, 404},
                   false);
        a.remove_header("X-Remnawave-Client-Type");
        stand_remnawave::save_kept_token(token_file(), c, fresh);
        a.set_header("Authorization", "Bearer " + fresh.token);
        bearer_set_ = true;
    }

    // Hysteria 2: the config profile with Xray's hysteria inbound, the squad
    // holding that inbound, a host on it pinning the core's certificate
    // (the backend puts a host's pinnedPeerCertSha256 and sni into the links,
    // never an insecure flag).
    void bootstrap_hysteria2() {
        const fs::path tls_dir = data_dir() / "tls";
        const auto cert = stand_panel_kit::hysteria2_certificate(kPanel, tls_dir, docker_ ? fs::path(kContainerTls) : tls_dir);
        const auto [profile_uuid, inbound_uuid] = ensure_hysteria2_profile(cert);
        const std::string squad = ensure_hysteria2_squad(inbound_uuid);
        ensure_host(kHysteria2Name, {{"inbound", {{"configProfileUuid", profile_uuid}, {"configProfileInboundUuid", inbound_uuid}}},
                                     {"address", "node1.bench.test"},
                                     {"port", hysteria2_.inbound_port},
                                     {"sni", stand_panel_kit::kHysteria2ServerName},
                                     {"pinnedPeerCertSha256", cert.pin_sha256}});
        tunnel_auth_field_ = credential_field("hysteria");
        squad_ = squad;
    }

    // {profile uuid, inbound uuid} of the profile named kHysteria2Name, made
    // when missing. Two bootstraps at once: the second create is refused
    // with 409 (A114 name, A113 inbound tag) and the list has the first's.
    std::pair<std::string, std::string> ensure_hysteria2_profile(const stand_panel_kit::Hysteria2Certificate& cert) {
        if (auto found = find_hysteria2_profile()) return *found;
        json::object config{{"log", {{"loglevel", "warning"}}},
                            {"inbounds", json::array{stand_panel_kit::xray_hysteria2_inbound(kHysteria2Name, hysteria2_.inbound_port, cert,
                                                                                      hysteria2_.congestion)}},
                            {"outbounds", json::array{json::object{{"tag", "DIRECT"}, {"protocol", "freedom"}},
                                                      json::object{{"tag", "BLOCK"}, {"protocol", "blackhole"}}}},
                            {"routing", {{"rules", json::array{}}}}};
        auto r = call("create config profile",
                      {{"method", "POST"}, {"url", url("/api/config-profiles")}, {"json", {{"name", kHysteria2Name}, {"config", config}}}},
                      {201, 409});
        if (auto found = find_hysteria2_profile()) return *found;
        throw stand_panel_kit::bad_response(kPanel, "create config profile", "no profile " + std::string(kHysteria2Name) + " with inbound " +
                                                                          kHysteria2Name + " afterwards", r);
    }

    std::optional<std::pair<std::string, std::string>> find_hysteria2_profile() {
        auto r = call("list config profiles", {{"method", "GET"}, {"url", url("/api/config-profiles")}}, {200});
        const auto& list = stand_panel_kit::member(r.json, kPanel, "list config profiles", {"response", "configProfiles"});
        if (!list.is_array()) return std::nullopt;
        for (const auto& p : list.as_array()) {
            if (!named(p, "name", kHysteria2Name)) continue;
            const auto& inbounds = stand_panel_kit::member(p, kPanel, "list config profiles", {"inbounds"});
            if (inbounds.is_array())
                for (const auto& in : inbounds.as_array())
                    if (named(in, "tag", kHysteria2Name))
                        return std::pair{stand_panel_kit::string_member(p, kPanel, "list config profiles", {"uuid"}),
                                         stand_panel_kit::string_member(in, kPanel, "list config profiles", {"uuid"})};
        }
        return std::nullopt;
    }

    // The uuid of the internal squad named kHysteria2Name (made when
    // missing, 409 A120 when another bootstrap made it first).
    std::string ensure_hysteria2_squad(const std::string& inbound_uuid) {
        if (auto found = find_squad(kHysteria2Name)) return *found;
        auto r = call("create squad",
                      {{"method", "POST"}, {"url", url("/api/internal-squads")},
                       {"json", {{"name", kHysteria2Name}, {"inbounds", json::array{inbound_uuid.c_str()}}}}},
                      {201, 409});
        if (auto found = find_squad(kHysteria2Name)) return *found;
        throw stand_panel_kit::bad_response(kPanel, "create squad", "no squad " + std::string(kHysteria2Name) + " afterwards", r);
    }

    std::optional<std::string> find_squad(const char* name) {
        auto r = call("list squads", {{"method", "GET"}, {"url", url("/api/internal-squads")}}, {200});
        const auto& list = stand_panel_kit::member(r.json, kPanel, "list squads", {"response", "internalSquads"});
        if (list.is_array())
            for (const auto& s : list.as_array())
                if (named(s, "name", name)) return stand_panel_kit::string_member(s, kPanel, "list squads", {"uuid"});
        return std::nullopt;
    }

    static bool named(const json::value& v, const char* key, const char* name) {
        const auto* o = v.if_object();
        return o && o->contains(key) && o->at(key) == name;
    }

    // The backend accepts duplicate remarks: after creating, the first host
    // with the remark (list order, viewPosition) stays and any later one is
    // deleted, so two bootstraps at once still leave one link per user.
    // `host` is the create body without the remark.
    void ensure_host(const char* remark, json::object host) {
        auto ours = hosts_with_remark(remark);
        if (ours.empty()) {
            host["remark"] = remark;
            call("create host", {{"method", "POST"}, {"url", url("/api/hosts")}, {"json", host}}, {201});
            ours = hosts_with_remark(remark);
        }
        for (std::size_t i = 1; i < ours.size(); ++i)
            call("delete duplicate host", {{"method", "DELETE"}, {"url", url("/api/hosts/" + ours[i])}}, {200, 204, 404});
    }

    std::vector<std::string> hosts_with_remark(const char* remark) {
        auto hosts = call("list hosts", {{"method", "GET"}, {"url", url("/api/hosts")}}, {200});
        const auto& list = stand_panel_kit::member(hosts.json, kPanel, "list hosts", {"response"});
        std::vector<std::string> out;
        if (list.is_array())
            for (const auto& h : list.as_array())
                if (named(h, "remark", remark)) out.push_back(stand_panel_kit::string_member(h, kPanel, "list hosts", {"uuid"}));
        return out;
    }

    void require_bootstrap(const char* what) const {
        if (squad_.empty()) throw Error(STAND_E_BAD_STATE, std::string("remnawave: ") + what + " before bootstrap");
    }

    // subscriptionUrl as returned (https://SUB_PUBLIC_DOMAIN/<shortUuid>,
    // resolved when relative). When it names the backend's own address, the
    // request goes there over plain HTTP with the forwarding headers: the
    // backend expects a TLS proxy in front of it and serves HTTP itself.
    json::object subscription(const std::string& sub_url) const {
        std::string target = stand_panel_kit::resolve_url(origin() + "/", sub_url);
        json::object headers{{"User-Agent", "v2rayN/7.5.0"}};
        const std::string authority = host_name_ + ":" + std::to_string(port_);
        const std::string target_origin = stand_panel_kit::origin_of(target);
        if (target_origin == "https://" + authority || target_origin == "http://" + authority) {
            target = origin() + stand_panel_kit::path_of(target);
            for (const auto& [k, v] : forwarding()) headers[k] = v;
        }
        return {{"method", "GET"}, {"url", target}, {"headers", headers}};
    }

    // docker-compose-prod.yml of backend 3.3.2, with the box as cgroup
    // parent, the API published on the configured address only (no metrics
    // or database port published) and the project's own volume names.
    std::string compose_yaml() const {
        const std::string box = "    cgroup_parent: ${STAND_CGROUP_PARENT}\n";
        const std::string ulimits = "    ulimits: {nofile: {soft: 1048576, hard: 1048576}}\n";
        return "services:\n"
               "  remnawave:\n"
               "    image: " + image_ + "\n"
               "    container_name: stand_remnawave\n"
               "    hostname: remnawave\n" + box + ulimits +
               "    env_file: ${data_dir}/.env\n"
               "    volumes: [\"valkey-socket:/var/run/valkey\"" +
                   (hysteria2_.enabled ? std::string(", \"${data_dir}/tls:") + kContainerTls + ":ro\"" : std::string()) + "]\n"
               "    ports: [\"" + host_name_ + ":" + std::to_string(port_) + ":3000\"]\n"
               "    healthcheck: {test: [\"CMD-SHELL\", \"curl -f http://localhost:3001/health\"], interval: 30s, "
               "timeout: 5s, retries: 3, start_period: 30s}\n"
               "    depends_on: {remnawave-db: {condition: service_healthy}, remnawave-redis: {condition: service_healthy}}\n"
               "  remnawave-db:\n"
               "    image: " + kDbImage + "\n"
               "    container_name: stand_remnawave_db\n"
               "    hostname: remnawave-db\n"
               "    shm_size: 512mb\n" + box + ulimits +
               "    env_file: ${data_dir}/.env\n"
               "    environment: [TZ=UTC]\n"
               "    volumes: [\"remnawave-db-data:/var/lib/postgresql\"]\n"
               "    healthcheck: {test: [\"CMD-SHELL\", \"pg_isready -U $${POSTGRES_USER} -d $${POSTGRES_DB}\"], "
               "interval: 3s, timeout: 10s, retries: 3}\n"
               "  remnawave-redis:\n"
               "    image: " + kRedisImage + "\n"
               "    container_name: stand_remnawave_redis\n"
               "    hostname: remnawave-redis\n" + box + ulimits +
               "    volumes: [\"valkey-socket:/var/run/valkey\"]\n"
               "    command: >\n"
               "      valkey-server --save \"\" --appendonly no --maxmemory-policy noeviction --loglevel warning\n"
               "      --unixsocket /var/run/valkey/valkey.sock --unixsocketperm 777 --port 0\n"
               "    healthcheck: {test: [\"CMD\", \"valkey-cli\", \"-s\", \"/var/run/valkey/valkey.sock\", \"ping\"], "
               "interval: 3s, timeout: 3s, retries: 3}\n"
               "volumes:\n"
               "  remnawave-db-data: {}\n"
               "  valkey-socket: {}\n";
    }

    std::string host_name_;
    int port_ = 3000;
    bool docker_ = true;
    stand_panel_kit::Credentials given_;
    std::string image_, sub_public_domain_;
    stand_panel_kit::Hysteria2Choice hysteria2_;
    std::unique_ptr<stand_panel_kit::AdminApi> api_;
    bool bearer_set_ = false;
    std::string squad_, tunnel_auth_field_;
    std::map<std::string, std::string> users_;  // id -> subscriptionUrl as returned
};

}  // namespace

STAND_CPP_PLUGIN(Remnawave, "remnawave", "Remnawave", "0.2.0",
                 "Remnawave backend (source read at 3.3.2): the official docker compose with a generated .env, or a "
                 "given command, in the measured box; users on the default squad's inbound, or on a Hysteria 2 inbound.",
                 config_spec())
