// caddy: runs the installed Caddy in the measured box from a generated JSON
// config, as an origin that answers `200 ok` or as a reverse proxy in front
// of upstreams (stand.lifecycle/1 + stand.proxy/1, through proxy-kit's
// ProxyPlugin). Every config is checked with `caddy validate` before use.
#include "caddy_config.hpp"
#include "caddy_output.hpp"
#include <stand/kits/proxy/proxy_plugin.hpp>

#include <csignal>
#include <filesystem>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::cpp::Error;
using stand_proxy_kit::ProxySettings;

constexpr const char* kKeepAliveDoc =
    "https://caddyserver.com/docs/caddyfile/directives/reverse_proxy#the-http-transport";

const stand_proxy_kit::ProxyTraits kCaddy{
    .id = "caddy",
    .default_binary = "/usr/bin/caddy",
    .default_port = 18082,
    .missing_binary = "Debian: apt-get install caddy",
    .main_config = "caddy.json",
    .workers_means = "GOMAXPROCS: Caddy has no worker count",
    .graceful_signal = SIGTERM,  // Caddy's graceful shutdown (SIGQUIT skips it)
    .go_runtime = true,
};

class Caddy : public stand_proxy_kit::ProxyPlugin {
public:
    Caddy(const stand::cpp::Host& host, const json::object& config) : ProxyPlugin(host, config, kCaddy) {}

private:
    std::vector<std::string> start_argv(const ProxySettings&) const override {
        return {binary(), "run", "--config", (data_dir() / kCaddy.main_config).string(), "--adapter", ""};
    }

    std::vector<stand_proxy_kit::ConfigFile> render_config(const ProxySettings& s) const override {
        return {{kCaddy.main_config, json::serialize(stand_caddy::render_caddy_config(s, data_dir().string())) + "\n"}};
    }

    std::optional<stand_proxy_kit::ConfigCheck> config_check(const fs::path& candidate) const override {
        return stand_proxy_kit::ConfigCheck{{binary(), "validate", "--config", candidate.string(), "--adapter", ""},
                                            "caddy validate"};
    }

    std::string check_failure(const std::string& output) const override {
        return stand_caddy::command_error(output);
    }

    void check_knobs(const stand_proxy_kit::ProxyKnobs& k) const override {
        if (k.max_connections)
            throw Error(STAND_E_UNSUPPORTED,
                        "caddy: knobs.max_connections: Caddy 2.6 has no limit on client connections in its JSON "
                        "config (the http server has none, and the transport's max_conns_per_host limits "
                        "connections to each upstream, not from clients); leave it unset");
    }

    std::vector<std::string> version_argv() const override { return {binary(), "version"}; }

    std::string version_from(const std::string& output) const override {
        return stand_caddy::version_from_output(output);
    }

    bool upstream_pool_on(const ProxySettings& s) const override { return stand_caddy::upstream_pool_on(s); }

    json::value upstream_pool(const ProxySettings& s, bool on) const override {
        if (!on) return json::object{{"keep_alive", false}};
        const bool set = s.knobs.upstream_keepalive.has_value();
        return json::object{
            {"keep_alive", true},
            {"idle_timeout", stand_caddy::kKeepAliveIdleTimeout},
            {"max_idle_conns_per_host", set ? stand_proxy_kit::kPoolIdlePerUpstream : stand_caddy::kKeepAliveIdlePerHost},
            {"max_idle_conns", "no limit"},
            {"probe_interval", stand_caddy::kKeepAliveProbeInterval},
            {"doc", kKeepAliveDoc}};
    }

    void add_defaults(json::object& d, const ProxySettings&) const override {
        d["max_connections"] = "none: Caddy has no client connection limit";
        d["max_connections_source"] = "caddy default";
        d["protocols"] = json::array{"h1", "h2"};
        d["websocket"] = "upgrades always proxied: Caddy's reverse_proxy passes them with or without the knob";
    }

    // XDG dirs keep Caddy's files (certificate cache, locks) in its data dir.
    json::object extra_environment() const override {
        return {{"XDG_DATA_HOME", (data_dir() / "xdg-data").string()},
                {"XDG_CONFIG_HOME", (data_dir() / "xdg-config").string()}};
    }
};

}  // namespace

STAND_PROXY_PLUGIN(Caddy, kCaddy, "Caddy", "0.3.0",
                   "Runs the installed Caddy in the measured box from a generated JSON config: an origin answering "
                   "200, or a reverse proxy.")
