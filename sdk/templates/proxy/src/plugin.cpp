// %%name%%: a reverse-proxy adapter (stand.lifecycle/1 + stand.proxy/1) on
// the SDK's proxy kit (made by `stand new adapter`). ProxyPlugin does the
// lifecycle, the knobs, the checked configs and the facts; a proxy is its
// traits, its hooks and its config renderer (config_render.cpp). The
// skeleton drives the installed nginx, a real proxy, so `stand compat`
// passes from the first build: replace the traits and hooks with your
// proxy's (its binary, command line, config check, version).
#include "config_render.hpp"
#include <stand/kits/proxy/proxy_plugin.hpp>

#include <csignal>
#include <filesystem>
#include <regex>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand_proxy_kit::ProxySettings;

const stand_proxy_kit::ProxyTraits kTraits{
    .id = "%%name%%",
    .default_binary = "/usr/sbin/nginx",
    .default_port = 18080,
    .missing_binary = "Debian: apt-get install nginx-light",
    .main_config = "nginx.conf",
    .workers_means = "worker_processes",
    .graceful_signal = SIGQUIT,  // nginx: finish requests in flight
};

class %%Class%% : public stand_proxy_kit::ProxyPlugin {
public:
    %%Class%%(const stand::cpp::Host& host, const json::object& config) : ProxyPlugin(host, config, kTraits) {}

private:
    // In the foreground, the data dir as prefix, logs in it.
    std::vector<std::string> args(const fs::path& config) const {
        return {"-c", config.string(), "-p", data_dir().string(), "-e", (data_dir() / "error.log").string(),
                "-g", "daemon off;"};
    }

    std::vector<std::string> start_argv(const ProxySettings&) const override {
        auto argv = args(data_dir() / kTraits.main_config);
        argv.insert(argv.begin(), binary());
        return argv;
    }

    std::vector<stand_proxy_kit::ConfigFile> render_config(const ProxySettings& s) const override {
        return {{kTraits.main_config, %%ident%%_adapter::render_config(s, data_dir().string())}};
    }

    // The proxy's own check of a config before it is used (`nginx -t`).
    std::optional<stand_proxy_kit::ConfigCheck> config_check(const fs::path& candidate) const override {
        fs::create_directories(data_dir() / "tmp");  // the temp folders the config names
        auto argv = args(candidate);
        argv.insert(argv.begin(), {binary(), "-t", "-q"});
        return stand_proxy_kit::ConfigCheck{std::move(argv), "nginx -t"};
    }

    std::vector<std::string> version_argv() const override { return {binary(), "-v"}; }

    std::string version_from(const std::string& output) const override {
        std::smatch m;
        return std::regex_search(output, m, std::regex("nginx/([0-9.]+)")) ? m[1].str() : "";
    }

    bool upstream_pool_on(const ProxySettings& s) const override { return %%ident%%_adapter::upstream_pool_on(s); }

    json::value upstream_pool(const ProxySettings&, bool on) const override {
        if (!on) return "none: a new backend connection per request";
        return json::object{{"keepalive", stand_proxy_kit::kPoolIdlePerUpstream}};
    }

    // The proxy's own defaults a reader needs to compare runs.
    void add_defaults(json::object& d, const ProxySettings& s) const override {
        d["max_connections"] = s.knobs.max_connections.value_or(%%ident%%_adapter::kDefaultConnections);
        d["websocket"] = s.knobs.websocket ? "Upgrade and Connection passed through" : "not passed";
    }
};

}  // namespace

STAND_PROXY_PLUGIN(%%Class%%, kTraits, "%%name%%", "0.1.0",
                   "A reverse-proxy adapter made by `stand new adapter` (drives the installed nginx).")
