// PasarGuard (v5; checked on the real v5.2.1): docker compose with the
// pinned image (host network, SQLite) and the box as cgroup parent, or the
// panel run from its source as its install_service.sh does (the checkout's
// .venv/bin/python3 main.py, working directory the checkout), spawned into
// the box (stand.lifecycle/1 + stand.panel/1). Either way the adapter sets
// UVICORN_HOST/UVICORN_PORT (binds only the configured address) and keeps
// the SQLite database in the data dir. The owner is created once with a temp
// key from the panel's CLI and POST /api/setup/owner; admin calls use the
// bearer from the form-encoded /api/admin/token. Users join a group on
// "Shadowsocks TCP"; a host on that inbound gives the link. Or Hysteria 2: a
// core config of its own with Xray's hysteria inbound (a self-signed
// certificate made in the data dir, which the panel reads), a group on it
// and a host pinning the certificate; the links carry the users'
// proxy_settings.hysteria.auth.
// subscription_url is relative: it is resolved against the panel origin.
#include "admin_api.hpp"
#include "credentials.hpp"
#include "hysteria2.hpp"
#include "panel_lifecycle.hpp"
#include "python_install.hpp"
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
constexpr const char* kImage = "pasarguard/panel:v5.2.1";
constexpr const char* kInboundTag = "Shadowsocks TCP";
constexpr const char* kGroup = "everyone";
constexpr const char* kHostRemark = "stand-host";
// Hysteria 2: the core config, its inbound's tag, the group and the host.
constexpr const char* kHysteria2Name = "stand-hysteria2";
constexpr const char* kDefaultProtocol = "shadowsocks";
constexpr const char* kContainerDataDir = "/var/lib/pasarguard";  // the data dir inside the container
// install_service.sh: ExecStart=$PWD/.venv/bin/python3 $PWD/main.py, WorkingDirectory=$PWD.
constexpr const char* kVenvPython = ".venv/bin/python3";

// Items of a list answer: an array, or {"<key>": [...]} (paged lists).
const json::array* items(const json::value& v, const char* key) {
    if (v.is_array()) return &v.as_array();
    if (const auto* o = v.if_object())
        if (const auto* a = o->if_contains(key); a && a->is_array()) return &a->as_array();
    return nullptr;
}

// FastAPI answers {"detail": "Not Found"} for a path it has no route for,
// while the panel's own 404 for a user is {"detail": "User not found"}.
bool user_not_found(const stand_panel_kit::Reply& r) {
    const auto* o = r.json.if_object();
    const auto* d = o ? o->if_contains("detail") : nullptr;
    return r.status == 404 && d && d->is_string() && d->as_string() == "User not found";
}

// version = "..." of the checkout's pyproject.toml, "" when unreadable.
std::string source_version(const fs::path& source_dir) {
    std::ifstream in(source_dir / "pyproject.toml");
    std::smatch m;
    for (std::string line; std::getline(in, line);)
        if (std::regex_match(line, m, std::regex(R"(\s*version\s*=\s*"([^"]+)\"\s*)"))) return m[1].str();
    return {};
}

// The config: the launch keys (panel-kit, docker by default), the Hysteria 2 keys and PasarGuard's own.
const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_panel_kit::declare_launch_keys(s, stand_panel_kit::RunMode::docker);
        s.string("source_dir", "native: PasarGuard's checkout (main.py, pasarguard-cli.py, a built dashboard/build)");
        s.string("python", "native: the interpreter; default source_dir/.venv/bin/python3 (`uv sync`)");
        s.key("command").describe(
            "native, instead of source_dir: a command that starts the panel; ${data_dir} ${port} ${listen} expanded");
        s.key("working_dir").describe("native; default: source_dir");
        s.key("env").describe(
            "native env added to UVICORN_HOST, UVICORN_PORT, SQLALCHEMY_DATABASE_URL (SQLite in the data dir)");
        s.strings("temp_key_command",
                  "prints 'Temp key: <key>'; default: python pasarguard-cli.py generate-temp-key in source_dir "
                  "(docker: via docker exec); same env and working dir as the panel");
        s.string("image", "docker mode: the panel's image").by_default(kImage);
        s.string("host", "the address the panel binds (UVICORN_HOST)").by_default("127.0.0.1");
        s.integer("port", "the panel's HTTP port (UVICORN_PORT)").range(1, 65535).by_default(8000);
        stand_panel_kit::declare_hysteria2_keys(
            s, kDefaultProtocol,
            "shadowsocks: users on the default core config's inbound Shadowsocks TCP; hysteria2: a core config of "
            "its own with Xray's hysteria inbound (version 2, TLS with a self-signed certificate made in <data "
            "dir>/tls, no obfuscation), a group on it, a host pinning the certificate (pinSHA256); tunnel_auth is "
            "the user's proxy_settings.hysteria.auth");
        stand_panel_kit::declare_credential_keys(s, "benchadmin", "the admin login",
                                                 "the admin password (to the panel's policy when generated)");
        return s;
    }();
    return spec;
}

class PasarGuard : public stand::cpp::Instance, public stand_panel_kit::PanelLifecycle, public stand::cpp::Panel {
public:
    PasarGuard(const stand::cpp::Host& host, const json::object& config) : PanelLifecycle(host, kPanel) {
        auto cfg = config_spec().read(config);
        const bool own_command = cfg.given("command");
        auto lc = stand_panel_kit::read_launch_config(cfg);
        host_name_ = cfg.string("host");
        port_ = static_cast<int>(cfg.integer("port"));
        given_ = stand_panel_kit::read_given_credentials(cfg);
        image_ = cfg.string("image");
        source_dir_ = cfg.string("source_dir");
        python_ = cfg.string("python");
        temp_key_command_ = cfg.strings("temp_key_command");
        hysteria2_ = stand_panel_kit::read_hysteria2_choice(cfg, "Shadowsocks TCP keeps its port");
        cfg.finish();
        docker_ = lc.mode == stand_panel_kit::RunMode::docker;
        if (docker_) {
            if (!source_dir_.empty() || !python_.empty())
                throw ConfigError(std::string("config.") + (source_dir_.empty() ? "python" : "source_dir") +
                                  ": only for native mode (the image " + image_ + " holds the panel)");
            if (temp_key_command_.empty())
                temp_key_command_ = {lc.docker, "exec", "stand_pasarguard", "pasarguard-cli", "generate-temp-key"};
        } else {
            configure_native(lc, own_command);
        }
        lc.project = "standpasar";
        lc.container = "stand_pasarguard";
        PanelLifecycle::launch(std::move(lc), {{"port", std::to_string(port_)}, {"listen", host_name_}},
                               docker_ ? "docker mode runs the image " + image_
                                       : std::string("native mode runs PasarGuard from its source: config.source_dir "
                                                     "is the checkout, config.python its interpreter (default "
                                                     "source_dir/") + kVenvPython + ", made by `uv sync`)");
        if (!source_dir_.empty()) {
            launcher().add_artifact(source_dir_);
            for (const auto& p : stand_pasarguard::python_artifacts(python_, source_dir_)) launcher().add_artifact(p);
        }
        launcher().set_compose_text(compose_yaml());
    }

    // --- lifecycle (the rest is PanelLifecycle's)
    json::object readiness() override {
        // /health is the image's own health check; / serves the dashboard.
        return {{"method", "GET"},
                {"url", url("/health")},
                {"expect_status", json::array{200}},
                {"per_try_timeout_ms", 2000},
                {"also", json::array{json::object{{"method", "GET"}, {"url", url("/")}, {"expect_status", json::array{200}}}}}};
    }

    // --- panel
    void bootstrap() override {
        if (!fs::exists(owner_marker())) create_owner();
        authenticate();
        if (hysteria2_.enabled) {
            ensure_hysteria2_core();
            group_id_ = find_or_create_group(kHysteria2Name, kHysteria2Name);
            ensure_host(kHysteria2Name, {{"address", json::array{"node1.bench.test"}},
                                         {"inbound_tag", kHysteria2Name},
                                         {"port", hysteria2_.inbound_port},
                                         {"sni", json::array{stand_panel_kit::kHysteria2ServerName}},
                                         {"pinned_peer_cert_sha256", hysteria2_certificate().pin_sha256},
                                         {"priority", 1}});
            return;
        }
        group_id_ = find_or_create_group(kGroup, kInboundTag);
        ensure_host(kHostRemark, {{"address", json::array{"node1.bench.test"}},
                                  {"inbound_tag", kInboundTag},
                                  {"port", 1080},
                                  {"priority", 1}});
    }

    json::object create_user(const std::string& name) override {
        require_bootstrap("create_user");
        auto r = call("create user",
                      {{"method", "POST"},
                       {"url", url("/api/user")},
                       {"json", {{"username", name}, {"group_ids", json::array{*group_id_}}, {"data_limit", 0}}}},
                      {201, 409});
        if (r.status == 409) throw stand_panel_kit::bad_response(kPanel, "create user", "duplicate user '" + name + "'", r);
        const std::string id = stand_panel_kit::id_member(r.json, kPanel, "create user", {"id"});
        const std::string sub = stand_panel_kit::string_member(r.json, kPanel, "create user", {"subscription_url"});
        json::object out{{"name", name}, {"id", id}, {"subscription", subscription(sub)}};
        // What the inbound's links carry: Shadowsocks' password, Hysteria's auth.
        out["tunnel_auth"] = hysteria2_.enabled
                                 ? stand_panel_kit::string_member(r.json, kPanel, "create user", {"proxy_settings", "hysteria", "auth"})
                                 : stand_panel_kit::string_member(r.json, kPanel, "create user", {"proxy_settings", "shadowsocks", "password"});
        users_[id] = sub;
        return out;
    }

    void delete_user(const std::string& user_id) override {
        require_bootstrap("delete_user");
        auto r = call("delete user", {{"method", "DELETE"}, {"url", url("/api/user/by-id/" + user_id)}}, {204, 404});
        // SQLite gives the next user a deleted user's id when it was the highest: forget it either way.
        users_.erase(user_id);
        if (r.status == 404) missing_user("delete user", user_id, r);
    }

    void admin_call() override {
        require_bootstrap("admin_call");
        call("list users", {{"method", "GET"}, {"url", url("/api/users?limit=1")}}, {200});
    }

    json::object subscription_request(const std::string& user_id) override {
        require_bootstrap("subscription_request");
        auto it = users_.find(user_id);
        if (it != users_.end()) return subscription(it->second);
        // GET /api/user/by-id mints the URL; GET /api/users leaves it "" unless load_sub=true.
        auto r = call("read user", {{"method", "GET"}, {"url", url("/api/user/by-id/" + user_id)}}, {200, 404});
        if (r.status == 404) missing_user("read user", user_id, r);
        return subscription(stand_panel_kit::string_member(r.json, kPanel, "read user", {"subscription_url"}));
    }

private:
    // Native mode: the panel from its source, or the given command (a
    // stand-in that behaves like it). The panel's variables go to both.
    void configure_native(stand_panel_kit::LaunchConfig& lc, bool own_command) {
        if (!python_.empty() && source_dir_.empty())
            throw ConfigError("config.python: needs config.source_dir (the checkout the interpreter runs main.py from)");
        if (!own_command) {
            if (source_dir_.empty())
                throw ConfigError(std::string("config.source_dir: native mode runs PasarGuard from its source: give "
                                              "the checkout's folder (where `uv sync` made ") + kVenvPython +
                                  "), or config.command; or use \"mode\": \"docker\"");
            if (python_.empty()) python_ = (fs::path(source_dir_) / kVenvPython).string();
            lc.command = {python_, "main.py"};
        }
        if (lc.working_dir.empty()) lc.working_dir = source_dir_;
        // What the compose file gives the image: bind only the configured
        // address, keep the database in the data dir (wipe resets it).
        std::map<std::string, std::string> env{{"UVICORN_HOST", "${listen}"},
                                               {"UVICORN_PORT", "${port}"},
                                               {"SQLALCHEMY_DATABASE_URL", "sqlite+aiosqlite:///${data_dir}/db.sqlite3"}};
        for (const auto& [k, v] : lc.env) env[k] = v;
        lc.env = env;
        if (!source_dir_.empty()) {
            if (temp_key_command_.empty()) temp_key_command_ = {python_, "pasarguard-cli.py", "generate-temp-key"};
            // start.sh (the image's entrypoint) runs these before main.py; the systemd unit leaves them to `make run-migration`.
            migrate_command_ = {python_, "-m", "alembic", "upgrade", "head"};
        } else if (temp_key_command_.empty()) {
            temp_key_command_ = {"pasarguard-cli", "generate-temp-key"};
        }
    }

    void check_install() override {
        if (docker_) return check_docker_images({image_});
        if (source_dir_.empty()) return;
        const fs::path src = source_dir_;
        std::error_code ec;
        for (const char* f : {"main.py", "pasarguard-cli.py", "alembic.ini"})
            if (!fs::is_regular_file(src / f, ec))
                throw Error(STAND_E_NOT_FOUND, std::string("pasarguard: install: ") + (src / f).string() +
                                                   " is missing: config.source_dir must be PasarGuard's checkout");
        // dashboard/__init__.py runs `bun run build` at start-up when the build is missing.
        if (!fs::is_regular_file(src / "dashboard/build/index.html", ec))
            throw Error(STAND_E_NOT_FOUND, "pasarguard: install: " + (src / "dashboard/build/index.html").string() +
                                               " is missing: build the dashboard (`bun run build` in dashboard/) "
                                               "before the first start, or the panel tries at start-up");
    }

    void before_start() override {
        if (!migrate_command_.empty())
            launcher().run_capture(migrate_command_, "alembic upgrade head (the database migrations)", 600000);
    }

    void forget() override {
        group_id_.reset();
        users_.clear();
        api_.reset();
    }

    json::object panel_facts() override {
        json::object f{{"listen", host_name_}, {"temp_key_command", json::value_from(temp_key_command_)}};
        f["protocol"] = hysteria2_.enabled ? "hysteria2" : kDefaultProtocol;
        if (hysteria2_.enabled) {
            f["congestion"] = hysteria2_.congestion.empty() ? "default" : hysteria2_.congestion;
            f["inbound_port"] = hysteria2_.inbound_port;
        }
        if (docker_) f["image"] = image_;
        if (!source_dir_.empty()) {
            f["source_dir"] = source_dir_;
            f["python"] = python_;
            if (auto v = source_version(source_dir_); !v.empty()) f["versions"] = json::object{{"pasarguard", v}};
        }
        return f;
    }

    fs::path owner_marker() const { return data_dir() / ".stand-owner-created"; }
    std::string origin() const { return "http://" + host_name_ + ":" + std::to_string(port_); }
    std::string url(const std::string& path) const { return origin() + path; }

    [[noreturn]] void missing_user(const std::string& op, const std::string& user_id, const stand_panel_kit::Reply& r) const {
        if (user_not_found(r)) throw Error(STAND_E_NOT_FOUND, "pasarguard: " + op + ": no user " + user_id);
        throw stand_panel_kit::bad_response(kPanel, op, "the panel has no such route (not a missing user)", r);
    }

    stand_panel_kit::Credentials credentials() const {
        // Policy: >= 12 chars, >= 2 digits, >= 2 upper, >= 2 lower, >= 1 special.
        return stand_panel_kit::load_or_create_credentials(host(), credentials_file(), given_, "Bn-", "Aa19");
    }

    stand_panel_kit::AdminApi& api() {
        if (!api_) api_ = std::make_unique<stand_panel_kit::AdminApi>(host(), kPanel, origin(), json::object{{"cookies", false}});
        return *api_;
    }

    stand_panel_kit::Reply call(const std::string& op, const json::object& request, std::vector<int> expect) {
        auto with_401 = expect;
        with_401.push_back(401);
        auto r = api().call(op, request, with_401, false);
        if (r.status == 401) {  // token expired or the secret changed: log in once more
            authenticate();
            r = api().call(op, request, expect, false);
        }
        boost::system::error_code ec;
        r.json = json::parse(r.body, ec);
        if (ec && !r.body.empty()) throw stand_panel_kit::bad_response(kPanel, op, "the body is not JSON", r);
        return r;
    }

    void create_owner() {
        const std::string out = launcher().run_capture(temp_key_command_, "generate-temp-key", 120000);
        std::smatch m;
        if (!std::regex_search(out, m, std::regex(R"(Temp key: (\S+))")))
            throw Error(STAND_E_BAD_RESPONSE, "pasarguard: generate-temp-key printed no 'Temp key:' line: " +
                                                  stand_panel_kit::excerpt(out));
        host().mark_secret(m[1].str());  // a one-time key, in the helper's 0600 log too
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
        if (r.status != 200) throw stand_panel_kit::bad_response(kPanel, "login", "wrong credentials for admin '" + c.username + "'", r);
        boost::system::error_code ec;
        auto v = json::parse(r.body, ec);
        if (ec) throw stand_panel_kit::bad_response(kPanel, "login", "the body is not JSON", r);
        a.set_header("Authorization", "Bearer " + stand_panel_kit::string_member(v, kPanel, "login", {"access_token"}));
    }

    static bool named(const json::value& v, const char* key, const char* name) {
        const auto* o = v.if_object();
        return o && o->contains(key) && o->at(key) == name;
    }

    long long find_or_create_group(const char* name, const char* inbound_tag) {
        auto list = call("list groups", {{"method", "GET"}, {"url", url("/api/groups")}}, {200});
        if (const auto* groups = items(list.json, "groups"))
            for (const auto& g : *groups)
                if (named(g, "name", name)) return std::stoll(stand_panel_kit::id_member(g, kPanel, "list groups", {"id"}));
        auto r = call("create group",
                      {{"method", "POST"},
                       {"url", url("/api/group")},
                       {"json", {{"name", name}, {"inbound_tags", json::array{inbound_tag}}}}},
                      {201});
        return std::stoll(stand_panel_kit::id_member(r.json, kPanel, "create group", {"id"}));
    }

    // `host` is the create body without the remark.
    void ensure_host(const char* remark, json::object host) {
        auto list = call("list hosts", {{"method", "GET"}, {"url", url("/api/hosts")}}, {200});
        if (const auto* hosts = items(list.json, "hosts"))
            for (const auto& h : *hosts)
                if (named(h, "remark", remark)) return;
        host["remark"] = remark;
        // The trailing slash matters: without it the panel answers 307.
        call("create host", {{"method", "POST"}, {"url", url("/api/host/")}, {"json", host}}, {201});
    }

    // The core's certificate in <data dir>/tls, named as the panel reads it
    // (app/core/xray.py inlines the certificate files when it validates a
    // core config): docker sees the data dir at /var/lib/pasarguard.
    stand_panel_kit::Hysteria2Certificate hysteria2_certificate() const {
        const fs::path dir = data_dir() / "tls";
        return stand_panel_kit::hysteria2_certificate(kPanel, dir, docker_ ? fs::path(kContainerDataDir) / "tls" : dir);
    }

    // A core config named kHysteria2Name holding the hysteria inbound of
    // that tag (the default core config stays as it is).
    void ensure_hysteria2_core() {
        auto list = call("list cores", {{"method", "GET"}, {"url", url("/api/cores")}}, {200});
        if (const auto* cores = items(list.json, "cores"))
            for (const auto& c : *cores)
                if (named(c, "name", kHysteria2Name)) return;
        const auto cert = hysteria2_certificate();
        json::object config{{"log", {{"loglevel", "warning"}}},
                            {"inbounds", json::array{stand_panel_kit::xray_hysteria2_inbound(kHysteria2Name, hysteria2_.inbound_port, cert,
                                                                                      hysteria2_.congestion)}},
                            {"outbounds", json::array{json::object{{"protocol", "freedom"}, {"tag", "DIRECT"}}}}};
        call("create core config",
             {{"method", "POST"},
              {"url", url("/api/core")},
              {"json", {{"name", kHysteria2Name}, {"config", config}, {"exclude_inbound_tags", json::array{}},
                        {"fallbacks_inbound_tags", json::array{}}}}},
             {201});
    }

    void require_bootstrap(const char* what) const {
        if (!group_id_) throw Error(STAND_E_BAD_STATE, std::string("pasarguard: ") + what + " before bootstrap");
    }

    json::object subscription(const std::string& sub_url) const {
        return {{"method", "GET"},
                {"url", stand_panel_kit::resolve_url(origin() + "/", sub_url)},
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

    std::string host_name_;
    int port_ = 8000;
    bool docker_ = true;
    stand_panel_kit::Credentials given_;
    std::string image_, source_dir_, python_;
    std::vector<std::string> temp_key_command_, migrate_command_;
    stand_panel_kit::Hysteria2Choice hysteria2_;
    std::unique_ptr<stand_panel_kit::AdminApi> api_;
    std::optional<long long> group_id_;
    std::map<std::string, std::string> users_;  // id -> subscription_url as the panel gave it
};

}  // namespace

STAND_CPP_PLUGIN(PasarGuard, "pasarguard", "PasarGuard", "0.2.0",
                 "PasarGuard panel (checked on the real v5.2.1): docker compose with the pinned image, or run from its "
                 "source, in the measured box; Shadowsocks or Hysteria 2 users.",
                 config_spec())
