// caddy: runs the installed Caddy in the measured box from a generated JSON
// config, as an origin that answers `200 ok` or as a reverse proxy in front
// of upstreams (stand.lifecycle/1 + stand.proxy/1). Knobs are read by
// proxy-kit like for every proxy plugin; every config is checked with
// `caddy validate` before use.
#include "caddy_config.hpp"
#include "caddy_output.hpp"
#include "cert_key_type.hpp"
#include "proxy_knobs.hpp"
#include "server_process.hpp"
#include "tool_run.hpp"

#include <stand/stand.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;
using stand_caddy::CaddySettings;

constexpr std::uint16_t kDefaultPort = 18082;
constexpr const char* kKeepAliveDoc =
    "https://caddyserver.com/docs/caddyfile/directives/reverse_proxy#the-http-transport";

class Caddy : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Proxy {
public:
    Caddy(const stand::cpp::Host& host, const json::object& config) : host_(host) {
        stand::cpp::ConfigReader cfg(config);
        binary_ = cfg.string("binary", "/usr/bin/caddy");
        box_ = cfg.string("box", "measured");
        settings_.knobs.listen_port = static_cast<std::uint16_t>(cfg.integer("port", kDefaultPort, 1, 65535));
        settings_.knobs.workers = cfg.integer("workers", 1, 1, 64);
        settings_.body = cfg.string("body", "ok");
        stand_proxy_kit::check_origin_body(settings_.body);
        cfg.finish();
    }

    ~Caddy() override {
        if (server_.running()) stop();
    }

    stand_result install() override {
        check_binary();
        version();
        write_validated_config(settings_);
        return STAND_OK;
    }

    stand_result start() override {
        server_.expect_not_running();
        check_binary();
        write_validated_config(settings_);
        json::object spec{{"argv", json::array{binary_, "run", "--config", config_path().string(), "--adapter", ""}},
                          {"env", caddy_env(settings_)},
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
        stand_proxy_kit::remove_data_dir(prefix_dir(), "caddy");
        validated_.clear();
        return STAND_OK;
    }

    json::object readiness() override { return stand_proxy_kit::proxy_readiness(settings_.knobs); }

    json::object facts() override {
        json::object facts{{"binary", binary_},
                           {"config", config_path().string()},
                           {"data_dirs", json::array{prefix_dir().string()}},
                           {"environment", caddy_env(settings_)},
                           {"defaults", effective_defaults()}};
        if (!version_.empty()) facts["versions"] = json::object{{"caddy", version_}};
        std::error_code ec;
        auto bytes = fs::file_size(binary_, ec);
        if (!ec) facts["artifacts"] = json::array{json::object{{"path", binary_}, {"bytes", bytes}}};
        return facts;
    }

    // Knobs apply to a copy, kept only when Caddy accepts the config: a
    // refused configure() leaves the previous settings in force.
    void configure(const json::object& knobs) override {
        CaddySettings next = settings_;
        next.knobs = stand_proxy_kit::apply_proxy_knobs(knobs, settings_.knobs);
        if (next.knobs.max_connections)
            throw Error(STAND_E_UNSUPPORTED,
                        "caddy: knobs.max_connections: Caddy 2.6 has no limit on client connections in its JSON "
                        "config (the http server has none, and the transport's max_conns_per_host limits "
                        "connections to each upstream, not from clients); leave it unset");
        if (next.knobs.tls) key_type(next.knobs);  // a readable certificate, or an error naming it
        if (fs::exists(binary_)) write_validated_config(next);
        settings_ = std::move(next);
    }

    json::object endpoint() override { return stand_proxy_kit::proxy_endpoint(settings_.knobs, {"h2", "http/1.1"}); }

    json::object effective_defaults() override {
        const auto& k = settings_.knobs;
        const bool pool = stand_caddy::upstream_pool_on(settings_);
        json::object d{{"version", version()},
                       {"workers", k.workers},
                       {"workers_means", "GOMAXPROCS: Caddy has no worker count"},
                       {"max_connections", "none: Caddy has no client connection limit"},
                       {"max_connections_source", "caddy default"},
                       {"access_log", "off"},
                       {"protocols", json::array{"h1", "h2"}},
                       {"upstream_keepalive", pool},
                       {"upstream_keepalive_source", k.upstream_keepalive ? "knob" : "caddy default"},
                       {"upstream_pool", upstream_pool(pool)},
                       {"websocket", "upgrades always proxied: Caddy's reverse_proxy passes them with or without "
                                     "the knob"}};
        if (k.tls) d["tls_key_type"] = key_type(k);
        return d;
    }

private:
    fs::path prefix_dir() const { return fs::path(host_.data_dir()) / "caddy"; }
    fs::path config_path() const { return prefix_dir() / "caddy.json"; }
    // The config being validated; after a rejection it stays for inspection.
    fs::path candidate_path() const { return prefix_dir() / "caddy.next.json"; }

    // Caddy 2.6's http transport when "keep_alive" is left out
    // (reverseproxy/httptransport.go, NewTransport).
    static json::object upstream_pool(bool on) {
        if (!on) return {{"keep_alive", false}};
        return {{"keep_alive", true},
                {"idle_timeout", "2m"},
                {"max_idle_conns_per_host", 32},
                {"max_idle_conns", "no limit"},
                {"probe_interval", "30s"},
                {"doc", kKeepAliveDoc}};
    }

    static std::string key_type(const stand_proxy_kit::ProxyKnobs& k) {
        try {
            return stand_proxy_kit::cert_key_type(k.cert_file);
        } catch (const std::exception& e) {
            throw Error(STAND_E_INVALID_ARGUMENT, std::string("caddy: knobs.tls_key.cert_file: ") + e.what());
        }
    }

    void check_binary() const {
        if (!fs::exists(binary_))
            throw Error(STAND_E_NOT_FOUND, "caddy: " + binary_ + " not found (Debian: apt-get install caddy)");
    }

    const std::string& version() {
        if (!version_.empty() || !fs::exists(binary_)) return version_;
        auto r = run({binary_, "version"}, "version", settings_);
        std::string v = stand_caddy::version_from_output(r.output);
        if (r.exit_code != 0 || v.empty())
            throw Error(STAND_E_BAD_RESPONSE, "caddy: cannot read the version from `" + binary_ + " version`: " +
                                                  stand_proxy_kit::output_tail(r.output, 200));
        version_ = v;
        return version_;
    }

    // Writes caddy.json for `s` once `caddy validate` accepted it; the check
    // is skipped when the text is the one Caddy last accepted.
    void write_validated_config(const CaddySettings& s) {
        const std::string text = json::serialize(stand_caddy::render_caddy_config(s, prefix_dir().string()));
        if (text == validated_ && fs::exists(config_path())) return;
        validated_.clear();
        fs::create_directories(prefix_dir());
        {
            std::ofstream out(candidate_path(), std::ios::trunc);
            out << text << "\n";
            if (!out) throw Error(STAND_E_IO, "caddy: cannot write " + candidate_path().string());
        }
        auto r = run({binary_, "validate", "--config", candidate_path().string(), "--adapter", ""}, "validate", s);
        if (r.exit_code != 0)
            throw Error(STAND_E_INVALID_ARGUMENT, "caddy: `caddy validate` rejected " + candidate_path().string() +
                                                      ": " + stand_caddy::command_error(r.output));
        std::error_code ec;
        fs::rename(candidate_path(), config_path(), ec);
        if (ec) throw Error(STAND_E_IO, "caddy: cannot write " + config_path().string() + ": " + ec.message());
        validated_ = text;
    }

    stand_proxy_kit::ToolRun run(const std::vector<std::string>& argv, const std::string& what,
                                 const CaddySettings& s) const {
        return stand_proxy_kit::run_tool(host_, argv, prefix_dir(), what, "caddy", caddy_env(s));
    }

    // GOMAXPROCS stands for the other proxies' worker count; XDG dirs keep Caddy's files in the prefix.
    json::object caddy_env(const CaddySettings& s) const {
        return {{"GOMAXPROCS", std::to_string(s.knobs.workers)},
                {"XDG_DATA_HOME", (prefix_dir() / "xdg-data").string()},
                {"XDG_CONFIG_HOME", (prefix_dir() / "xdg-config").string()}};
    }

    stand::cpp::Host host_;
    std::string binary_;
    std::string box_;
    std::string version_;
    std::string validated_;  // the config text Caddy last accepted
    CaddySettings settings_;
    // stop(): Caddy's graceful shutdown (SIGQUIT skips it)
    stand_proxy_kit::ServerProcess server_{"caddy", SIGTERM, 10000};
};

}  // namespace

STAND_CPP_PLUGIN(Caddy, "caddy", "Caddy", "0.2.0",
                 "Runs the installed Caddy in the measured box from a generated JSON config: an origin answering "
                 "200, or a reverse proxy.",
                 R"({"type":"object","additionalProperties":false,"properties":{
                     "binary":{"type":"string","default":"/usr/bin/caddy"},
                     "box":{"type":"string","default":"measured","description":"box to run in; empty: none"},
                     "port":{"type":"integer","minimum":1,"maximum":65535,"default":18082},
                     "workers":{"type":"integer","minimum":1,"maximum":64,"default":1,
                                "description":"GOMAXPROCS: Caddy has no worker count"},
                     "body":{"type":"string","pattern":"^[A-Za-z0-9 _.-]{0,256}$","default":"ok"}}})")
