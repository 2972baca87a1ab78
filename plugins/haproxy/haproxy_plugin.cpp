// haproxy: runs the installed haproxy in the measured box, as an origin that
// answers `200 ok` or as a reverse proxy in front of upstreams
// (stand.lifecycle/1 + stand.proxy/1). Knobs are read by proxy-kit like for
// every proxy plugin; every config is checked with `haproxy -c` before use.
#include "cert_key_type.hpp"
#include "haproxy_check_output.hpp"
#include "haproxy_config.hpp"
#include "haproxy_files.hpp"
#include "proxy_knobs.hpp"
#include "server_process.hpp"
#include "tool_run.hpp"

#include <stand/stand.hpp>

#include <csignal>
#include <filesystem>
#include <memory>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;
using stand_haproxy::HaproxySettings;

constexpr std::uint16_t kDefaultPort = 18081;
constexpr const char* kReuseDoc = "https://docs.haproxy.org/2.6/configuration.html#4.2-http-reuse";

class Haproxy : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Proxy {
public:
    Haproxy(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigReader cfg(config);
        binary_ = cfg.string("binary", "/usr/sbin/haproxy");
        box_ = cfg.string("box", "measured");
        settings_.knobs.listen_port = static_cast<std::uint16_t>(cfg.integer("port", kDefaultPort, 1, 65535));
        settings_.knobs.workers = cfg.integer("workers", 1, 1, 64);
        settings_.body = cfg.string("body", "ok");
        stand_proxy_kit::check_origin_body(settings_.body);
        cfg.finish();
    }

    ~Haproxy() override {
        if (server_.running()) stop();
    }

    stand_result install() override {
        check_binary();
        banner();
        write_checked_config(settings_);
        return STAND_OK;
    }

    stand_result start() override {
        server_.expect_not_running();
        check_binary();
        write_checked_config(settings_);
        json::object spec{{"argv", json::array{binary_, "-f", config_path().string(), "-db"}},
                          {"output", (prefix_dir() / "stdout.log").string()}};
        server_.start(host_, std::move(spec), box_);
        return STAND_OK;
    }

    stand_result stop() override { return server_.stop(); }

    stand_result restart() override {
        server_.expect_running();
        stop();
        return start();
    }

    stand_result wipe() override {
        server_.expect_stopped("wipe");
        stand_proxy_kit::remove_data_dir(prefix_dir(), "haproxy");
        checked_.clear();
        return STAND_OK;
    }

    json::object readiness() override { return stand_proxy_kit::proxy_readiness(settings_.knobs); }

    json::object facts() override {
        json::object facts{{"binary", binary_},
                           {"config", config_path().string()},
                           {"data_dirs", json::array{prefix_dir().string()}},
                           {"defaults", effective_defaults()}};
        std::string version = stand_haproxy::version_from_banner(banner());
        if (!version.empty()) facts["versions"] = json::object{{"haproxy", version}};
        std::error_code ec;
        auto bytes = fs::file_size(binary_, ec);
        if (!ec) facts["artifacts"] = json::array{json::object{{"path", binary_}, {"bytes", bytes}}};
        return facts;
    }

    // Knobs apply to a copy, kept only when haproxy accepts the config: a
    // refused configure() leaves the previous settings in force.
    void configure(const json::object& knobs) override {
        HaproxySettings next = settings_;
        next.knobs = stand_proxy_kit::apply_proxy_knobs(knobs, settings_.knobs);
        next.tls_pem = next.knobs.tls ? (prefix_dir() / "tls.pem").string() : "";
        if (next.knobs.tls) key_type(next.knobs);  // a readable certificate, or an error naming it
        if (fs::exists(binary_)) write_checked_config(next);
        settings_ = std::move(next);
    }

    json::object endpoint() override { return stand_proxy_kit::proxy_endpoint(settings_.knobs, {"h2", "http/1.1"}); }

    json::object effective_defaults() override {
        const auto& k = settings_.knobs;
        const bool pool = stand_haproxy::upstream_pool_on(settings_);
        json::object d{
            {"version", banner().empty() ? json::value(nullptr) : json::value(banner())},
            {"workers", k.workers},
            {"workers_means", "nbthread: threads of one haproxy process"},
            {"max_connections",
             k.max_connections ? json::value(*k.max_connections)
                               : json::value("global maxconn unset: haproxy derives it from the file descriptor "
                                             "limit (ulimit -n) when it starts")},
            {"max_connections_source", k.max_connections ? "knob" : "haproxy default"},
            {"access_log", "off"},
            {"upstream_keepalive", pool},
            {"upstream_keepalive_source", k.upstream_keepalive ? "knob" : "haproxy default"},
            {"upstream_pool", upstream_pool(pool)},
            {"websocket", k.websocket ? "upgrades pass; an idle tunnel lasts up to timeout tunnel " +
                                            std::string(stand_haproxy::kTunnelTimeout)
                                      : std::string("upgrades pass (haproxy default); an idle tunnel closes after "
                                                    "timeout client/server 30s")}};
        if (k.tls) {
            d["tls_key_type"] = key_type(k);
            d["alpn"] = stand_haproxy::kAlpn;
        }
        return d;
    }

private:
    fs::path prefix_dir() const { return fs::path(host_.data_dir()) / "haproxy"; }
    fs::path config_path() const { return prefix_dir() / "haproxy.cfg"; }
    // The config being checked; after a rejection it stays for inspection.
    fs::path candidate_path() const { return prefix_dir() / "haproxy.next.cfg"; }

    void check_binary() const {
        if (!fs::exists(binary_))
            throw Error(STAND_E_NOT_FOUND, "haproxy: " + binary_ + " not found (Debian: apt-get install haproxy)");
    }

    // haproxy 2.6's documented defaults for an idle server connection pool.
    static json::value upstream_pool(bool on) {
        if (!on)
            return "none: option http-server-close closes the server connection after each response; "
                   "client connections stay keep-alive";
        return json::object{{"http_reuse", "safe"}, {"pool_max_conn", "unlimited (-1)"},
                            {"pool_purge_delay", "5s"}, {"pool_low_conn", 0}, {"doc", kReuseDoc}};
    }

    static std::string key_type(const stand_proxy_kit::ProxyKnobs& k) {
        try {
            return stand_proxy_kit::cert_key_type(k.cert_file);
        } catch (const std::exception& e) {
            throw Error(STAND_E_INVALID_ARGUMENT, std::string("haproxy: knobs.tls_key.cert_file: ") + e.what());
        }
    }

    const std::string& banner() {
        if (banner_.empty() && fs::exists(binary_)) {
            auto r = stand_proxy_kit::run_tool(host_, {binary_, "-v"}, prefix_dir(), "version", "haproxy");
            banner_ = stand_haproxy::first_line(r.output);
        }
        return banner_;
    }

    // Writes haproxy.cfg for `s` (with TLS also the PEM haproxy reads: cert
    // and key in one file, mode 0600) once `haproxy -c` accepted it; the
    // check is skipped when the text is the one haproxy last accepted.
    void write_checked_config(const HaproxySettings& s) {
        fs::create_directories(prefix_dir());
        std::string pem;
        if (s.knobs.tls) {
            std::string cert = stand_haproxy::read_text(s.knobs.cert_file, "knobs.tls_key.cert_file");
            if (!cert.ends_with('\n')) cert += '\n';
            pem = cert + stand_haproxy::read_text(s.knobs.key_file, "knobs.tls_key.key_file");
            stand_haproxy::write_private_file(s.tls_pem, pem);
        }
        const std::string text = stand_haproxy::render_haproxy_cfg(s);
        if (text + pem == checked_ && fs::exists(config_path())) return;
        checked_.clear();
        stand_haproxy::write_text(candidate_path(), text);
        auto r = stand_proxy_kit::run_tool(host_, {binary_, "-c", "-f", candidate_path().string()}, prefix_dir(),
                                           "check", "haproxy");
        if (r.exit_code != 0) {
            std::string why = stand_haproxy::check_alerts(r.output);
            if (why.empty()) why = stand_proxy_kit::output_tail(r.output);
            throw Error(STAND_E_INVALID_ARGUMENT,
                        "haproxy: `haproxy -c` rejected " + candidate_path().string() + ": " + why);
        }
        std::error_code ec;
        fs::rename(candidate_path(), config_path(), ec);
        if (ec) throw Error(STAND_E_IO, "haproxy: cannot write " + config_path().string() + ": " + ec.message());
        checked_ = text + pem;
    }

    stand::cpp::Host host_;
    std::string binary_;
    std::string box_;
    std::string banner_;
    std::string checked_;  // config text + PEM haproxy last accepted
    HaproxySettings settings_;
    // stop(): soft stop: finish requests in flight
    stand_proxy_kit::ServerProcess server_{"haproxy", SIGUSR1, 10000};
};

}  // namespace

STAND_CPP_PLUGIN(Haproxy, "haproxy", "HAProxy", "0.2.0",
                 "Runs the installed haproxy in the measured box: an origin answering 200, or a reverse proxy.",
                 R"({"type":"object","additionalProperties":false,"properties":{
                     "binary":{"type":"string","default":"/usr/sbin/haproxy"},
                     "box":{"type":"string","default":"measured","description":"box to run in; empty: none"},
                     "port":{"type":"integer","minimum":1,"maximum":65535,"default":18081},
                     "workers":{"type":"integer","minimum":1,"maximum":64,"default":1,
                                "description":"haproxy nbthread"},
                     "body":{"type":"string","pattern":"^[A-Za-z0-9 _.-]{0,256}$","default":"ok"}}})")
