// 3x-ui (MHSanaei/3x-ui): the panel binary spawned into the box as the
// official install runs it (/usr/local/x-ui/x-ui, working directory
// /usr/local/x-ui, Xray from its bin/ folder), or docker compose with the box
// as cgroup parent (stand.lifecycle/1 + stand.panel/1). Before the first
// start the data dir gets the configured port, listen address, base path,
// admin account and subscription server; bootstrap moves Xray's API and
// metrics ports and adds one inbound on the listen address: VLESS Reality
// (TCP), or Hysteria 2 (UDP, with a self-signed certificate made in the data
// dir and pinned in the links). Users are clients with a credential and a
// subId the adapter chooses, so no read-back is needed; the subscription is
// on the separate sub port.
#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/hysteria2.hpp>
#include <stand/kits/panel/panel_lifecycle.hpp>
#include <stand/kits/panel/tcp_wait.hpp>
#include <stand/kits/panel/url.hpp>
#include "xui_api.hpp"
#include "xui_first_start.hpp"


#include <stand/stand.hpp>

#include <sys/utsname.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::ConfigError;
using stand::cpp::Error;

constexpr const char* kVlessRemark = "stand-vless-reality";
constexpr const char* kHysteria2Remark = "stand-hysteria2";
constexpr const char* kInstalledBinary = "/usr/local/x-ui/x-ui";
constexpr const char* kImage = "ghcr.io/mhsanaei/3x-ui:v3.6.0";
constexpr int kXrayApiDefault = 62789;
constexpr int kXrayMetricsDefault = 11111;
constexpr int kImagePanelPort = 2053;  // inside the container (x-ui's defaults)
constexpr int kImageSubPort = 2096;

std::string uuid4() {
    std::string h = stand_panel_kit::random_hex(16);
    h[12] = '4';
    h[16] = "89ab"[h[16] % 4];
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

// x-ui runs bin/xray-<GOOS>-<GOARCH> (internal/xray/process.go GetBinaryName).
std::string xray_binary_name() {
    utsname u{};
    std::string arch = uname(&u) == 0 ? u.machine : "x86_64";
    if (arch == "x86_64") arch = "amd64";
    else if (arch == "aarch64") arch = "arm64";
    return "xray-linux-" + arch;
}

// The config: the launch keys (panel-kit), the Hysteria 2 keys and 3x-ui's own.
const stand::cpp::ConfigSpec& config_spec() {
    static const stand::cpp::ConfigSpec spec = [] {
        stand::cpp::ConfigSpec s;
        stand_panel_kit::declare_launch_keys(s, stand_panel_kit::RunMode::native, {kInstalledBinary});
        s.key("command").describe("native argv of the panel; `<argv> setting ...` configures a new data dir");
        s.key("working_dir").describe("native; default: the folder of command[0]");
        s.key("env").describe("native env added to XUI_DB_FOLDER=<data dir>, XUI_LOG_FOLDER, XUI_BIN_FOLDER=<data dir>/bin");
        s.string("bin_folder",
                 "native: where Xray and its geo files are (linked into <data dir>/bin, x-ui's XUI_BIN_FOLDER); "
                 "default: bin/ in the working dir");
        s.string("image", "docker mode: the panel's image").by_default(kImage);
        s.string("host", "the address the panel, the subscription server and the inbound bind").by_default("127.0.0.1");
        s.integer("port", "the panel's HTTP port").range(1, 65535).by_default(2053);
        s.integer("sub_port", "the subscription server's port").range(1, 65535).by_default(2096);
        s.string("web_base_path", "the panel's URL path (webBasePath), a secret of the panel: never logged")
            .by_default("/")
            .secret();
        stand_panel_kit::declare_hysteria2_keys(
            s, "vless-reality",
            "the inbound users join; hysteria2: Xray's hysteria inbound (version 2), TLS with a self-signed "
            "certificate made in the data dir and pinned in the links (pinSHA256), no obfuscation");
        s.key("inbound_port")
            .describe("the users' inbound: TCP for vless-reality, UDP for hysteria2")
            .by_default(stand_panel_kit::kDefaultInboundPort);
        s.integer("xray_api_port", "Xray's gRPC API (loopback), moved at bootstrap").range(1, 65535).by_default(kXrayApiDefault);
        s.integer("xray_metrics_port", "Xray's metrics listener (loopback); 0 removes it")
            .range(0, 65535)
            .by_default(kXrayMetricsDefault);
        s.boolean("block_private",
                  "native: keep Xray's blocking of private destinations (x-ui's rule geoip:private -> blocked, "
                  "freedom's default final rule); by default stand lets loopback through, where the tunnel's sink is")
            .by_default(false);
        s.integer("http_timeout_ms", "per admin call, connect to last byte").range(100, 600000).by_default(30000);
        stand_panel_kit::declare_credential_keys(s, "admin", "the panel's admin login",
                                                 "the admin password, applied with x-ui setting before the first start");
        return s;
    }();
    return spec;
}

class Xui : public stand::cpp::Instance, public stand_panel_kit::PanelLifecycle, public stand::cpp::Panel {
public:
    Xui(const stand::cpp::Host& host, const json::object& config) : PanelLifecycle(host, "3x-ui") {
        auto cfg = config_spec().read(config);
        auto lc = stand_panel_kit::read_launch_config(cfg);
        host_name_ = cfg.string("host");
        port_ = static_cast<int>(cfg.integer("port"));
        sub_port_ = static_cast<int>(cfg.integer("sub_port"));
        base_path_ = cfg.string("web_base_path");
        if (base_path_.empty() || base_path_.front() != '/') base_path_ = "/" + base_path_;
        if (base_path_.back() != '/') base_path_ += "/";
        if (base_path_ != "/") PanelLifecycle::host().mark_secret(base_path_);  // x-ui's secret web base path
        inbound_port_ = static_cast<int>(cfg.integer("inbound_port"));
        if (cfg.string("protocol") == "hysteria2") protocol_ = stand_3x_ui::Protocol::hysteria2;
        congestion_ = cfg.string("congestion");
        if (congestion_ != "default" && protocol_ != stand_3x_ui::Protocol::hysteria2)
            throw ConfigError("config.congestion: only for \"protocol\": \"hysteria2\"");
        xray_api_port_ = static_cast<int>(cfg.integer("xray_api_port"));
        xray_metrics_port_ = static_cast<int>(cfg.integer("xray_metrics_port"));
        block_private_ = cfg.boolean("block_private");
        std::string bin_folder = cfg.string("bin_folder");
        given_ = stand_panel_kit::read_given_credentials(cfg);
        image_ = cfg.string("image");
        http_timeout_ms_ = static_cast<int>(cfg.integer("http_timeout_ms"));
        cfg.finish();
        docker_ = lc.mode == stand_panel_kit::RunMode::docker;
        if (!docker_) {
            // The official unit: WorkingDirectory=/usr/local/x-ui/, and x-ui
            // finds Xray in XUI_BIN_FOLDER, else bin/ below its working directory.
            if (lc.working_dir.empty() && lc.command.front().find('/') != std::string::npos)
                lc.working_dir = fs::path(lc.command.front()).parent_path().string();
            bin_folder_ = !bin_folder.empty() ? bin_folder
                          : lc.working_dir.empty() ? std::string("bin")
                                                       : (fs::path(lc.working_dir) / "bin").string();
            std::map<std::string, std::string> env{{"XUI_DB_FOLDER", "${data_dir}"},
                                                   {"XUI_LOG_FOLDER", "${data_dir}/log"},
                                                   {"XUI_BIN_FOLDER", "${data_dir}/bin"},
                                                   {"XRAY_VMESS_AEAD_FORCED", "false"}};
            for (const auto& [k, v] : lc.env) env[k] = v;
            lc.env = env;
        } else if (!bin_folder.empty()) {
            throw ConfigError("config.bin_folder: only for native mode (the image holds Xray)");
        }
        lc.project = "stand3xui";
        lc.container = "stand_3xui";
        if (!docker_) {
            setting_command_ = lc.command;
            setting_command_.emplace_back("setting");
        }
        PanelLifecycle::launch(std::move(lc),
                               {{"port", std::to_string(port_)},
                                {"sub_port", std::to_string(sub_port_)},
                                {"listen", host_name_},
                                {"bin_folder", bin_folder_}},
                               docker_ ? "the docker CLI runs image " + image_
                                       : std::string("3x-ui's install.sh puts the panel in ") + kInstalledBinary +
                                             "; or set config.command to the x-ui binary");
        if (!docker_) {
            for (const char* f : {"", "geoip.dat", "geosite.dat"})
                launcher().add_artifact("${bin_folder}/" + (*f ? std::string(f) : xray_binary_name()));
        }
        launcher().set_compose_text(compose_yaml());
        // The image's entrypoint starts the panel whatever its arguments, so
        // `x-ui setting` runs in a one-off container with x-ui as entrypoint,
        // on the same database volume.
        if (docker_) setting_command_ = launcher().compose_argv({"run", "--rm", "--entrypoint", "/app/x-ui", "x-ui", "setting"});
    }

    // --- lifecycle (the rest is PanelLifecycle's)
    json::object readiness() override {
        // The panel page, then the subscription server and Xray (its API
        // port): x-ui answers GET / before either is up.
        json::array also{json::object{{"tcp", host_name_ + ":" + std::to_string(sub_port_)}}};
        if (!docker_) also.push_back(json::object{{"tcp", "127.0.0.1:" + std::to_string(current_xray_api_port())}});
        return {{"method", "GET"},
                {"url", panel_url() + base_path_},
                {"expect_status", json::array{200}},
                {"per_try_timeout_ms", 2000},
                {"also", also}};
    }

    // --- panel
    void bootstrap() override {
        auto& api = session();
        client_api_ = api.detect_client_api();
        if (!docker_ && api.adjust_xray_template(xray_api_port_, xray_metrics_port_, !block_private_)) {
            remember_xray_ports();
            // x-ui restarts Xray for the new template; an inbound added before
            // Xray is back is stored but never reaches the running core
            // ("Unable to add inbound on local: ... connection refused").
            if (!stand_panel_kit::wait_tcp_listening("127.0.0.1", xray_api_port_, 30000))
                throw Error(STAND_E_TIMEOUT, "3x-ui: bootstrap: Xray did not come back on its API port 127.0.0.1:" +
                                                 std::to_string(xray_api_port_) + " within 30 s after x-ui restarted it (" +
                                                 (data_dir() / "log").string() + ")");
        }
        const std::string listen = docker_ ? "" : host_name_;
        if (protocol_ == stand_3x_ui::Protocol::hysteria2) {
            inbound_id_ = api.find_inbound(kHysteria2Remark);
            if (!inbound_id_) inbound_id_ = api.add_hysteria2_inbound(kHysteria2Remark, listen, inbound_port_, hysteria2_tls());
        } else {
            inbound_id_ = api.find_inbound(kVlessRemark);
            if (!inbound_id_) inbound_id_ = api.add_vless_reality_inbound(kVlessRemark, listen, inbound_port_);
        }
        auto sub = api.sub_settings();
        if (!docker_ && sub.uri.empty() && sub.port != sub_port_)
            throw Error(STAND_E_BAD_STATE, "3x-ui: bootstrap: the subscription server is on port " + std::to_string(sub.port) +
                                               " (x-ui's settings in " + data_dir().string() + "), config.sub_port is " +
                                               std::to_string(sub_port_) + ": wipe the data dir to apply the config");
        sub_base_ = sub.uri.empty() ? "http://" + host_name_ + ":" + std::to_string(sub_port_) + sub.path : sub.uri;
        if (sub_base_.back() != '/') sub_base_ += "/";
    }

    json::object create_user(const std::string& name) override {
        require_bootstrap("create_user");
        // Hysteria 2: 32 hex, what x-ui's fillProtocolDefaults would choose.
        const std::string credential = protocol_ == stand_3x_ui::Protocol::hysteria2 ? stand_panel_kit::random_hex(16) : uuid4();
        stand_3x_ui::XuiUser user{name, credential, stand_panel_kit::random_hex(8)};
        session().add_client(*client_api_, protocol_, *inbound_id_, user);
        users_[name] = user;
        return {{"name", name}, {"id", name}, {"subscription", subscription(user.sub_id)}, {"tunnel_auth", credential}};
    }

    void delete_user(const std::string& user_id) override {
        require_bootstrap("delete_user");
        session().delete_client(*client_api_, *inbound_id_, user_id);
        users_.erase(user_id);
    }

    void admin_call() override {
        require_bootstrap("admin_call");
        session().list_inbounds(*client_api_);
    }

    json::object subscription_request(const std::string& user_id) override {
        require_bootstrap("subscription_request");
        auto it = users_.find(user_id);
        if (it != users_.end()) return subscription(it->second.sub_id);
        if (*client_api_ == stand_3x_ui::ClientApi::v31) return subscription(session().client_sub_id(user_id));
        throw Error(STAND_E_NOT_FOUND, "3x-ui: no user '" + user_id + "' created by this instance");
    }

private:
    void check_install() override {
        if (docker_) return check_docker_images({image_});
        const fs::path bin = launcher().expand("${bin_folder}");
        std::error_code ec;
        const fs::path xray = bin / xray_binary_name();
        if (!fs::is_regular_file(xray, ec))
            throw Error(STAND_E_NOT_FOUND, "3x-ui: install: Xray is missing: " + xray.string() +
                                               " (x-ui runs Xray from XUI_BIN_FOLDER: config.bin_folder, default bin/ "
                                               "beside x-ui, where the official install puts it)");
        if (!fs::is_regular_file(bin / "geoip.dat", ec))
            throw Error(STAND_E_NOT_FOUND, "3x-ui: install: " + (bin / "geoip.dat").string() +
                                               " is missing: x-ui's default Xray template routes geoip:private");
        const std::string v = launcher().run_capture({launcher().config().command.front(), "-v"}, "x-ui -v", 30000);
        version_ = v.substr(0, v.find_last_not_of(" \r\n") + 1);
        prepare_data_dir();
    }

    void before_start() override { prepare_data_dir(); }

    void after_restart() override { api_.reset(); }  // the next admin call logs in again

    void forget() override {
        users_.clear();
        inbound_id_.reset();
        client_api_.reset();
        api_.reset();
    }

    json::object panel_facts() override {
        json::object f;
        if (client_api_) f["client_api"] = *client_api_ == stand_3x_ui::ClientApi::v31 ? "clients/* (v3.1+)" : "inbounds/addClient (legacy)";
        f["listen"] = host_name_;
        f["protocol"] = protocol_ == stand_3x_ui::Protocol::hysteria2 ? "hysteria2" : "vless-reality";
        if (protocol_ == stand_3x_ui::Protocol::hysteria2) f["congestion"] = congestion_;
        if (!block_private_ && !docker_)
            f["xray_template_change"] = "removed the rule geoip:private -> blocked, freedom allows 127.0.0.0/8 and ::1: stand's sink is on loopback";
        if (base_path_ != "/") f["secret_path_prefix"] = base_path_;
        if (!version_.empty()) f["versions"] = json::object{{"3x-ui", version_}};
        if (!docker_) {
            f["xray_api_port"] = current_xray_api_port();
            f["bin_folder"] = launcher().expand("${bin_folder}");
            f["xui_bin_folder"] = (data_dir() / "bin").string();
        } else {
            f["image"] = image_;
        }
        return f;
    }

    // x-ui's settings before its first start in this data dir. Native mode:
    // also a bin folder of its own: x-ui writes Xray's config.json into
    // XUI_BIN_FOLDER, so each instance gets links to the installed Xray and
    // data files instead of sharing the installation's folder. Docker mode:
    // the container's ports and all its interfaces (the compose file
    // publishes them on `host`), the database in the volume <data dir>/db.
    void prepare_data_dir() {
        auto c = credentials();
        if (docker_) {
            fs::create_directories(data_dir() / "db");
            launcher().write_compose_file();
            stand_3x_ui::FirstStartSettings s{kImagePanelPort, "", base_path_, c.username, c.password, kImageSubPort, ""};
            stand_3x_ui::apply_first_start_settings(launcher(), setting_command_, s, data_dir() / "db" / "x-ui.db");
            return;
        }
        fs::create_directories(data_dir() / "log");
        link_bin_folder();
        stand_3x_ui::FirstStartSettings s{port_, host_name_, base_path_, c.username, c.password, sub_port_, host_name_};
        stand_3x_ui::apply_first_start_settings(launcher(), setting_command_, s, data_dir() / "x-ui.db");
    }

    // The core's certificate (stand_panel_kit::hysteria2_certificate), in the
    // data dir (docker: the volume, as the container sees it), pinned in the
    // links by its SHA-256.
    stand_3x_ui::Hysteria2Inbound hysteria2_tls() const {
        const fs::path dir = docker_ ? data_dir() / "db" / "tls" : data_dir() / "tls";
        const auto cert = stand_panel_kit::hysteria2_certificate("3x-ui", dir, docker_ ? fs::path("/etc/x-ui/tls") : dir);
        return {cert.cert_file, cert.key_file, cert.pin_sha256, congestion_ == "default" ? std::string() : congestion_};
    }

    void link_bin_folder() {
        const fs::path source = fs::absolute(launcher().expand("${bin_folder}"));
        const fs::path own = data_dir() / "bin";
        fs::create_directories(own);
        for (const auto& entry : fs::directory_iterator(source)) {
            const auto name = entry.path().filename();
            std::error_code ec;
            if (name == "config.json" || !entry.is_regular_file(ec) || fs::exists(fs::symlink_status(own / name, ec)))
                continue;
            fs::create_symlink(entry.path(), own / name, ec);
            if (ec)
                throw Error(STAND_E_IO, "3x-ui: cannot link " + (own / name).string() + " to " + entry.path().string() +
                                            ": " + ec.message());
        }
    }

    // Xray's API port until bootstrap moved it: x-ui's default.
    fs::path xray_ports_file() const { return data_dir() / "stand-xray-ports"; }
    int current_xray_api_port() const {
        std::ifstream in(xray_ports_file());
        int port = 0;
        return in >> port ? port : kXrayApiDefault;
    }
    void remember_xray_ports() { std::ofstream(xray_ports_file()) << xray_api_port_ << "\n"; }

    std::string panel_url() const { return "http://" + host_name_ + ":" + std::to_string(port_); }

    stand_panel_kit::Credentials credentials() const { return stand_panel_kit::load_or_create_credentials(host(), credentials_file(), given_); }

    stand_3x_ui::XuiApi& session() {
        if (!api_) {
            auto c = credentials();
            api_ = std::make_unique<stand_3x_ui::XuiApi>(host(), panel_url() + base_path_.substr(0, base_path_.size() - 1),
                                                 c.username, c.password, http_timeout_ms_);
            api_->login();
        }
        return *api_;
    }

    void require_bootstrap(const char* what) const {
        if (!client_api_ || !inbound_id_)
            throw Error(STAND_E_BAD_STATE, std::string("3x-ui: ") + what + " before bootstrap");
    }

    json::object subscription(const std::string& sub_id) const {
        return {{"method", "GET"},
                {"url", stand_panel_kit::resolve_url(panel_url() + "/", sub_base_ + sub_id)},
                {"headers", {{"User-Agent", "v2rayN/7.5.0"}}}};
    }

    std::string compose_yaml() const {
        const std::string bind = host_name_ + ":";
        return "services:\n"
               "  x-ui:\n"
               "    image: " + image_ + "\n"
               "    container_name: stand_3xui\n"
               "    cgroup_parent: ${STAND_CGROUP_PARENT}\n"
               "    tty: true\n"
               "    cap_add: [NET_ADMIN, NET_RAW]\n"
               "    environment:\n"
               "      XRAY_VMESS_AEAD_FORCED: \"false\"\n"
               "      XUI_ENABLE_FAIL2BAN: \"false\"\n"
               "      XUI_INIT_WEB_BASE_PATH: \"" + base_path_ + "\"\n"
               "    ports:\n"
               "      - \"" + bind + std::to_string(port_) + ":" + std::to_string(kImagePanelPort) + "\"\n"
               "      - \"" + bind + std::to_string(sub_port_) + ":" + std::to_string(kImageSubPort) + "\"\n"
               "      - \"" + bind + std::to_string(inbound_port_) + ":" + std::to_string(inbound_port_) +
                   (protocol_ == stand_3x_ui::Protocol::hysteria2 ? "/udp" : "") + "\"\n"
               "    volumes:\n"
               "      - \"${data_dir}/db:/etc/x-ui\"\n";
    }

    std::string host_name_;
    int port_ = 2053, sub_port_ = 2096, inbound_port_ = 4443, http_timeout_ms_ = 30000;
    int xray_api_port_ = kXrayApiDefault, xray_metrics_port_ = kXrayMetricsDefault;
    bool docker_ = false;
    stand_3x_ui::Protocol protocol_ = stand_3x_ui::Protocol::vless_reality;
    bool block_private_ = false;
    std::string congestion_ = "default";
    std::string base_path_, bin_folder_, version_;
    std::vector<std::string> setting_command_;
    stand_panel_kit::Credentials given_;
    std::string image_;
    std::unique_ptr<stand_3x_ui::XuiApi> api_;
    std::optional<stand_3x_ui::ClientApi> client_api_;
    std::optional<long long> inbound_id_;
    std::string sub_base_;
    std::map<std::string, stand_3x_ui::XuiUser> users_;
};

}  // namespace

STAND_CPP_PLUGIN(Xui, "3x-ui", "3x-ui", "0.2.0",
                 "3x-ui panel (checked on the real v3.6.0 + Xray): native as the official install runs it, or docker "
                 "compose, in the measured box; VLESS Reality or Hysteria 2 users.",
                 config_spec())
