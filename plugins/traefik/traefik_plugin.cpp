// traefik: runs a Traefik v3 binary in the measured box as a reverse proxy
// in front of upstreams (stand.lifecycle/1 + stand.proxy/1). Traefik has no
// package here and no config-check mode: the configs are checked by the
// unit tests against the JSON schemas, and by Traefik when it starts.
#include "cert_key_type.hpp"
#include "proxy_knobs.hpp"
#include "server_process.hpp"
#include "tool_run.hpp"
#include "traefik_config.hpp"

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

constexpr std::uint16_t kDefaultPort = 18084;

class Traefik : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Proxy {
public:
    Traefik(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigReader cfg(config);
        binary_ = cfg.string("binary", "/usr/local/bin/traefik");
        box_ = cfg.string("box", "measured");
        settings_.knobs.listen_port = static_cast<std::uint16_t>(cfg.integer("port", kDefaultPort, 1, 65535));
        settings_.knobs.workers = cfg.integer("workers", 1, 1, 64);
        cfg.finish();
    }

    ~Traefik() override {
        if (server_.running()) stop();
    }

    stand_result install() override {
        check_binary();
        version();
        return STAND_OK;
    }

    stand_result start() override {
        server_.expect_not_running();
        check_binary();
        stand_traefik::check_traefik_knobs(settings_.knobs);
        write_configs();
        // Go sizes its scheduler from GOMAXPROCS: the worker-count knob.
        json::object spec{{"argv", json::array{binary_, "--configFile=" + static_path().string()}},
                          {"env", {{"GOMAXPROCS", std::to_string(settings_.knobs.workers)}}},
                          {"output", (prefix_dir() / "traefik.log").string()}};
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
        stand_proxy_kit::remove_data_dir(prefix_dir(), "traefik");
        return STAND_OK;
    }

    json::object readiness() override { return stand_proxy_kit::proxy_readiness(settings_.knobs); }

    json::object facts() override {
        json::object facts{{"binary", binary_},
                           {"config", static_path().string()},
                           {"dynamic_config", dynamic_path().string()},
                           {"data_dirs", json::array{prefix_dir().string()}},
                           {"defaults", effective_defaults()}};
        if (!version_.empty()) facts["versions"] = json::object{{"traefik", version_}};
        std::error_code ec;
        auto bytes = fs::file_size(binary_, ec);
        if (!ec) facts["artifacts"] = json::array{json::object{{"path", binary_}, {"bytes", bytes}}};
        return facts;
    }

    // Knobs apply to a copy, kept only when Traefik can honour them. There
    // is no `traefik -t`: what the knobs produce is checked by the unit
    // tests against the published schemas, and by Traefik at start().
    void configure(const json::object& knobs) override {
        auto next = settings_;
        next.knobs = stand_proxy_kit::apply_proxy_knobs(knobs, settings_.knobs);
        stand_traefik::check_traefik_knobs(next.knobs);
        if (next.knobs.tls) key_type(next.knobs);  // a readable certificate, or an error naming it
        settings_ = std::move(next);
    }

    json::object endpoint() override { return stand_proxy_kit::proxy_endpoint(settings_.knobs, {"h2", "http/1.1"}); }

    json::object effective_defaults() override {
        const auto& k = settings_.knobs;
        json::object d{{"version", version()},
                       {"workers", k.workers},
                       {"workers_env", "GOMAXPROCS=" + std::to_string(k.workers)},
                       {"max_connections", "unlimited (Traefik has no entry-point connection limit)"},
                       {"access_log", "off"},
                       {"websocket", k.websocket ? "passed through (Traefik's default)"
                                                 : "passed through anyway (Traefik forwards Upgrade by default)"}};
        if (!k.upstreams.empty()) {
            const bool pool = stand_traefik::upstream_pool_on(settings_);
            d["upstream_keepalive"] = pool;
            d["upstream_keepalive_source"] = k.upstream_keepalive ? "knob" : "traefik default";
            d["upstream_pool"] =
                pool ? json::value(json::object{{"maxIdleConnsPerHost", stand_traefik::kDefaultIdlePerHost}})
                     : json::value("maxIdleConnsPerHost -1: connection reuse disabled, a new backend connection "
                                   "per request");
        }
        if (k.tls) {
            d["tls_key_type"] = key_type(k);
            d["tls_protocols"] = "TLSv1.2-TLSv1.3 (Traefik's default minVersion VersionTLS12)";
        }
        return d;
    }

private:
    fs::path prefix_dir() const { return fs::path(host_.data_dir()) / "traefik"; }
    fs::path static_path() const { return prefix_dir() / "traefik.yml"; }
    fs::path dynamic_path() const { return prefix_dir() / "dynamic.yml"; }

    void check_binary() const {
        if (!fs::exists(binary_))
            throw Error(STAND_E_NOT_FOUND, "traefik: " + binary_ +
                                               " not found; Traefik is not installable here (no Debian package): "
                                               "put a Traefik v3 release binary there or set config.binary");
    }

    static std::string key_type(const stand_proxy_kit::ProxyKnobs& k) {
        try {
            return stand_proxy_kit::cert_key_type(k.cert_file);
        } catch (const std::exception& e) {
            throw Error(STAND_E_INVALID_ARGUMENT, std::string("traefik: knobs.tls_key.cert_file: ") + e.what());
        }
    }

    // `traefik version` prints "Version:      3.1.2" first.
    const std::string& version() {
        if (!version_.empty() || !fs::exists(binary_)) return version_;
        auto r = stand_proxy_kit::run_tool(host_, {binary_, "version"}, prefix_dir(), "version", "traefik");
        std::smatch m;
        if (!std::regex_search(r.output, m, std::regex("Version:\\s+v?([0-9]+\\.[0-9]+\\.[0-9]+)")))
            throw Error(STAND_E_BAD_RESPONSE, "traefik: cannot read the version from `" + binary_ +
                                                  " version`: " + r.output.substr(0, 200));
        version_ = m[1];
        return version_;
    }

    void write_configs() {
        fs::create_directories(prefix_dir());
        write_file(static_path(), stand_traefik::render_traefik_static(settings_, dynamic_path().string()));
        write_file(dynamic_path(), stand_traefik::render_traefik_dynamic(settings_));
    }

    static void write_file(const fs::path& path, const std::string& text) {
        std::ofstream out(path);
        out << text;
        if (!out) throw Error(STAND_E_IO, "traefik: cannot write " + path.string());
    }

    stand::cpp::Host host_;
    std::string binary_;
    std::string box_;
    std::string version_;
    stand_traefik::TraefikSettings settings_;
    // stop(): graceful: lifeCycle.graceTimeOut (10 s) for requests in flight
    stand_proxy_kit::ServerProcess server_{"traefik", SIGTERM, 15000};
};

}  // namespace

STAND_CPP_PLUGIN(Traefik, "traefik", "Traefik", "0.1.0",
                 "Runs a Traefik v3 binary in the measured box as a reverse proxy (no origin mode).",
                 R"({"type":"object","additionalProperties":false,"properties":{
                     "binary":{"type":"string","default":"/usr/local/bin/traefik"},
                     "box":{"type":"string","default":"measured","description":"box to run in; empty: none"},
                     "port":{"type":"integer","minimum":1,"maximum":65535,"default":18084},
                     "workers":{"type":"integer","minimum":1,"maximum":64,"default":1,
                                "description":"GOMAXPROCS"}}})")
