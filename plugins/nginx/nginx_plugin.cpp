// nginx: runs the installed nginx in the measured box, as an origin that
// answers `200 ok` or as a reverse proxy in front of upstreams
// (stand.lifecycle/1 + stand.proxy/1). Every config is checked with
// `nginx -t` before it is used.
#include "cert_key_type.hpp"
#include "nginx_config.hpp"
#include "proxy_knobs.hpp"
#include "server_process.hpp"
#include "tool_run.hpp"

#include <stand/stand.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;
using stand_proxy_kit::run_tool;

constexpr std::uint16_t kDefaultPort = 18080;

class Nginx : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Proxy {
public:
    Nginx(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigReader cfg(config);
        binary_ = cfg.string("binary", "/usr/sbin/nginx");
        box_ = cfg.string("box", "measured");
        settings_.knobs.listen_port = static_cast<std::uint16_t>(cfg.integer("port", kDefaultPort, 1, 65535));
        settings_.knobs.workers = cfg.integer("workers", 1, 1, 64);
        settings_.body = cfg.string("body", "ok");
        stand_proxy_kit::check_origin_body(settings_.body);
        cfg.finish();
    }

    ~Nginx() override {
        if (server_.running()) stop();
    }

    stand_result install() override {
        check_binary();
        version();
        write_checked_config(settings_);
        return STAND_OK;
    }

    stand_result start() override {
        server_.expect_not_running();
        check_binary();
        write_checked_config(settings_);
        json::object spec{{"argv", json::array{binary_, "-c", config_path().string(), "-p", prefix_dir().string(),
                                               "-e", (prefix_dir() / "error.log").string(), "-g", "daemon off;"}},
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
        stand_proxy_kit::remove_data_dir(prefix_dir(), "nginx");
        checked_.clear();
        return STAND_OK;
    }

    json::object readiness() override { return stand_proxy_kit::proxy_readiness(settings_.knobs); }

    json::object facts() override {
        json::object facts{{"binary", binary_},
                           {"config", config_path().string()},
                           {"data_dirs", json::array{prefix_dir().string()}},
                           {"defaults", effective_defaults()}};
        if (!version_.empty()) facts["versions"] = json::object{{"nginx", version_}};
        std::error_code ec;
        auto bytes = fs::file_size(binary_, ec);
        if (!ec) facts["artifacts"] = json::array{json::object{{"path", binary_}, {"bytes", bytes}}};
        return facts;
    }

    // Knobs apply to a copy, kept only when nginx accepts the config: a
    // refused configure() leaves the previous settings in force.
    void configure(const json::object& knobs) override {
        auto next = settings_;
        next.knobs = stand_proxy_kit::apply_proxy_knobs(knobs, settings_.knobs);
        if (next.knobs.tls) key_type(next.knobs);  // a readable certificate, or an error naming it
        if (fs::exists(binary_)) write_checked_config(next);
        settings_ = std::move(next);
    }

    json::object endpoint() override { return stand_proxy_kit::proxy_endpoint(settings_.knobs, {"h2", "http/1.1"}); }

    json::object effective_defaults() override {
        const auto& k = settings_.knobs;
        json::object d{{"version", version()},
                       {"workers", k.workers},
                       {"max_connections", k.max_connections.value_or(stand_nginx::kWorkerConnections)},
                       {"max_connections_note", "worker_connections per worker (nginx's own default: 512)"},
                       {"access_log", "off"},
                       {"keepalive_requests", 1000000},
                       {"websocket", k.websocket ? "Upgrade and Connection passed through"
                                                 : "not passed (nginx needs proxy_set_header Upgrade)"}};
        if (!k.upstreams.empty()) {
            const bool pool = stand_nginx::upstream_pool_on(settings_);
            d["upstream_keepalive"] = pool;
            d["upstream_keepalive_source"] = k.upstream_keepalive ? "knob" : "nginx default";
            d["upstream_pool"] = pool ? json::value(json::object{{"keepalive", stand_nginx::kUpstreamKeepalive},
                                                                 {"proxy_http_version", "1.1"}})
                                      : json::value("none: HTTP/1.0 and a new backend connection per request "
                                                    "(nginx before 1.29.7)");
        }
        if (k.tls) {
            d["tls_key_type"] = key_type(k);
            d["ssl_protocols"] = "TLSv1 TLSv1.1 TLSv1.2 (nginx 1.22's default: no TLSv1.3)";
        }
        return d;
    }

private:
    fs::path prefix_dir() const { return fs::path(host_.data_dir()) / "nginx"; }
    fs::path config_path() const { return prefix_dir() / "nginx.conf"; }

    void check_binary() const {
        if (!fs::exists(binary_))
            throw Error(STAND_E_NOT_FOUND, "nginx: " + binary_ + " not found (Debian: apt-get install nginx-light)");
    }

    static std::string key_type(const stand_proxy_kit::ProxyKnobs& k) {
        try {
            return stand_proxy_kit::cert_key_type(k.cert_file);
        } catch (const std::exception& e) {
            throw Error(STAND_E_INVALID_ARGUMENT, std::string("nginx: knobs.tls_key.cert_file: ") + e.what());
        }
    }

    const std::string& version() {
        if (!version_.empty() || !fs::exists(binary_)) return version_;
        auto r = run_tool(host_, {binary_, "-v"}, prefix_dir(), "version", "nginx");
        std::smatch m;
        if (!std::regex_search(r.output, m, std::regex("nginx/([0-9.]+)")))
            throw Error(STAND_E_BAD_RESPONSE,
                        "nginx: cannot read the version from `" + binary_ + " -v`: " + r.output.substr(0, 200));
        version_ = m[1];
        return version_;
    }

    // Writes nginx.conf for `s` and has `nginx -t` check it; skipped when
    // the text is the one nginx last accepted.
    void write_checked_config(const stand_nginx::NginxSettings& s) {
        const std::string text = stand_nginx::render_nginx_conf(s, prefix_dir().string());
        if (text == checked_ && fs::exists(config_path())) return;
        fs::create_directories(prefix_dir() / "tmp");
        {
            std::ofstream out(config_path());
            out << text;
            if (!out) throw Error(STAND_E_IO, "nginx: cannot write " + config_path().string());
        }
        auto r = run_tool(host_,
                          {binary_, "-t", "-q", "-c", config_path().string(), "-p", prefix_dir().string(), "-e",
                           (prefix_dir() / "error.log").string(), "-g", "daemon off;"},
                          prefix_dir(), "check", "nginx");
        if (r.exit_code != 0) {
            checked_.clear();
            throw Error(STAND_E_INVALID_ARGUMENT, "nginx: `nginx -t` rejected " + config_path().string() + ": " +
                                                      stand_proxy_kit::output_tail(r.output));
        }
        checked_ = text;
    }

    stand::cpp::Host host_;
    std::string binary_;
    std::string box_;
    std::string version_;
    std::string checked_;  // the config text nginx last accepted
    stand_nginx::NginxSettings settings_;
    // stop(): graceful: finish requests in flight
    stand_proxy_kit::ServerProcess server_{"nginx", SIGQUIT, 10000};
};

}  // namespace

STAND_CPP_PLUGIN(Nginx, "nginx", "nginx", "0.2.0",
                 "Runs the installed nginx in the measured box: an origin answering 200, or a reverse proxy.",
                 R"({"type":"object","additionalProperties":false,"properties":{
                     "binary":{"type":"string","default":"/usr/sbin/nginx"},
                     "box":{"type":"string","default":"measured","description":"box to run in; empty: none"},
                     "port":{"type":"integer","minimum":1,"maximum":65535,"default":18080},
                     "workers":{"type":"integer","minimum":1,"maximum":64,"default":1},
                     "body":{"type":"string","pattern":"^[A-Za-z0-9 _.-]{0,256}$","default":"ok"}}})")
