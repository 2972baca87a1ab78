// envoy: runs an Envoy binary in the measured box, as an origin that
// answers `200 ok` (a direct_response route) or as a reverse proxy in front
// of upstreams (stand.lifecycle/1 + stand.proxy/1). Every config is checked
// with `envoy --mode validate` before it is used. Envoy has no Debian
// package: the binary is wherever config.binary says.
#include "cert_key_type.hpp"
#include "envoy_config.hpp"
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

constexpr std::uint16_t kDefaultPort = 18083;

class Envoy : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Proxy {
public:
    Envoy(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigReader cfg(config);
        binary_ = cfg.string("binary", "/usr/local/bin/envoy");
        box_ = cfg.string("box", "measured");
        settings_.knobs.listen_port = static_cast<std::uint16_t>(cfg.integer("port", kDefaultPort, 1, 65535));
        settings_.knobs.workers = cfg.integer("workers", 1, 1, 64);
        settings_.body = cfg.string("body", "ok");
        stand_proxy_kit::check_origin_body(settings_.body);
        cfg.finish();
    }

    ~Envoy() override {
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
        // No hot restart: it needs shared memory per --base-id and a wrapper
        // process; restart() stops and starts instead.
        json::object spec{{"argv", json::array{binary_, "-c", config_path().string(), "--concurrency",
                                               std::to_string(settings_.knobs.workers), "--disable-hot-restart",
                                               "--log-level", "warn"}},
                          {"output", (prefix_dir() / "envoy.log").string()}};
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
        stand_proxy_kit::remove_data_dir(prefix_dir(), "envoy");
        checked_.clear();
        return STAND_OK;
    }

    json::object readiness() override { return stand_proxy_kit::proxy_readiness(settings_.knobs); }

    json::object facts() override {
        json::object facts{{"binary", binary_},
                           {"config", config_path().string()},
                           {"data_dirs", json::array{prefix_dir().string()}},
                           {"defaults", effective_defaults()}};
        if (!version_.empty()) facts["versions"] = json::object{{"envoy", version_}};
        std::error_code ec;
        auto bytes = fs::file_size(binary_, ec);
        if (!ec) facts["artifacts"] = json::array{json::object{{"path", binary_}, {"bytes", bytes}}};
        return facts;
    }

    // Knobs apply to a copy, kept only when Envoy accepts the config: a
    // refused configure() leaves the previous settings in force.
    void configure(const json::object& knobs) override {
        auto next = settings_;
        next.knobs = stand_proxy_kit::apply_proxy_knobs(knobs, settings_.knobs);
        stand_envoy::check_envoy_knobs(next.knobs);
        if (next.knobs.tls) key_type(next.knobs);  // a readable certificate, or an error naming it
        if (fs::exists(binary_)) write_checked_config(next);
        settings_ = std::move(next);
    }

    json::object endpoint() override { return stand_proxy_kit::proxy_endpoint(settings_.knobs, {"h2", "http/1.1"}); }

    json::object effective_defaults() override {
        const auto& k = settings_.knobs;
        json::object d{{"version", version()},
                       {"workers", k.workers},
                       {"workers_flag", "--concurrency " + std::to_string(k.workers)},
                       {"access_log", "off"},
                       {"admin", "off (no admin block)"},
                       {"websocket", k.websocket ? "upgrade_configs websocket: Upgrade passed through"
                                                 : "refused (Envoy passes Upgrade only with upgrade_configs)"}};
        if (k.max_connections) {
            d["max_connections"] = *k.max_connections;
            d["max_connections_source"] = std::string("overload manager ") + stand_envoy::kConnectionMonitor;
        } else {
            d["max_connections"] = "unlimited (Envoy's default: no global downstream limit)";
        }
        if (!k.upstreams.empty()) {
            const bool pool = stand_envoy::upstream_pool_on(settings_);
            d["upstream_keepalive"] = pool;
            d["upstream_keepalive_source"] = k.upstream_keepalive ? "knob" : "envoy default";
            d["upstream_pool"] =
                pool ? "per-worker HTTP/1.1 connection pool, no limit on requests per connection (Envoy's default)"
                     : "max_requests_per_connection 1 (HttpProtocolOptions): a new upstream connection per request";
            d["upstream_circuit_breakers"] = {{"max_connections", stand_envoy::kCircuitBreakerDefault},
                                              {"max_pending_requests", stand_envoy::kCircuitBreakerDefault},
                                              {"max_requests", stand_envoy::kCircuitBreakerDefault},
                                              {"source", "envoy default"}};
        }
        if (k.tls) {
            d["tls_key_type"] = key_type(k);
            d["tls_protocols"] = "TLSv1.2-TLSv1.3 (Envoy's server default)";
        }
        return d;
    }

private:
    fs::path prefix_dir() const { return fs::path(host_.data_dir()) / "envoy"; }
    fs::path config_path() const { return prefix_dir() / "envoy.json"; }

    void check_binary() const {
        if (!fs::exists(binary_))
            throw Error(STAND_E_NOT_FOUND, "envoy: " + binary_ +
                                               " not found; Envoy is not installable here (no Debian package): "
                                               "put an Envoy release binary there or set config.binary");
    }

    static std::string key_type(const stand_proxy_kit::ProxyKnobs& k) {
        try {
            return stand_proxy_kit::cert_key_type(k.cert_file);
        } catch (const std::exception& e) {
            throw Error(STAND_E_INVALID_ARGUMENT, std::string("envoy: knobs.tls_key.cert_file: ") + e.what());
        }
    }

    // `envoy --version` prints "envoy  version: <commit>/1.31.2/Clean/RELEASE/BoringSSL".
    const std::string& version() {
        if (!version_.empty() || !fs::exists(binary_)) return version_;
        auto r = run_tool(host_, {binary_, "--version"}, prefix_dir(), "version", "envoy");
        std::smatch m;
        if (!std::regex_search(r.output, m, std::regex("version: [0-9a-f]+/([0-9]+\\.[0-9]+\\.[0-9]+)")))
            throw Error(STAND_E_BAD_RESPONSE, "envoy: cannot read the version from `" + binary_ +
                                                  " --version`: " + r.output.substr(0, 200));
        version_ = m[1];
        return version_;
    }

    // Writes envoy.json for `s` and has `envoy --mode validate` check it;
    // skipped when the text is the one Envoy last accepted.
    void write_checked_config(const stand_envoy::EnvoySettings& s) {
        const std::string text = stand_envoy::render_envoy_config(s);
        if (text == checked_ && fs::exists(config_path())) return;
        fs::create_directories(prefix_dir());
        {
            std::ofstream out(config_path());
            out << text;
            if (!out) throw Error(STAND_E_IO, "envoy: cannot write " + config_path().string());
        }
        auto r = run_tool(host_, {binary_, "--mode", "validate", "-c", config_path().string(), "--log-level", "warn"},
                          prefix_dir(), "check", "envoy");
        if (r.exit_code != 0) {
            checked_.clear();
            throw Error(STAND_E_INVALID_ARGUMENT, "envoy: `envoy --mode validate` rejected " + config_path().string() +
                                                      ": " + stand_proxy_kit::output_tail(r.output));
        }
        checked_ = text;
    }

    stand::cpp::Host host_;
    std::string binary_;
    std::string box_;
    std::string version_;
    std::string checked_;  // the config text Envoy last accepted
    stand_envoy::EnvoySettings settings_;
    stand_proxy_kit::ServerProcess server_{"envoy", SIGTERM, 10000};
};

}  // namespace

STAND_CPP_PLUGIN(Envoy, "envoy", "Envoy", "0.1.0",
                 "Runs an Envoy binary in the measured box: an origin answering 200, or a reverse proxy.",
                 R"({"type":"object","additionalProperties":false,"properties":{
                     "binary":{"type":"string","default":"/usr/local/bin/envoy"},
                     "box":{"type":"string","default":"measured","description":"box to run in; empty: none"},
                     "port":{"type":"integer","minimum":1,"maximum":65535,"default":18083},
                     "workers":{"type":"integer","minimum":1,"maximum":64,"default":1,
                                "description":"--concurrency: worker threads"},
                     "body":{"type":"string","pattern":"^[A-Za-z0-9 _.-]{0,256}$","default":"ok"}}})")
