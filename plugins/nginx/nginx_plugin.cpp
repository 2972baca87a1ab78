// nginx: runs the installed nginx in the measured box, as an origin that
// answers `200 ok` or as a reverse proxy in front of upstreams
// (stand.lifecycle/1 + stand.proxy/1, through proxy-kit's ProxyPlugin).
// Every config is checked with `nginx -t` before it is used.
#include "nginx_config.hpp"
#include <stand/kits/proxy/proxy_plugin.hpp>

#include <csignal>
#include <filesystem>
#include <regex>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand_proxy_kit::ProxySettings;

const stand_proxy_kit::ProxyTraits kNginx{
    .id = "nginx",
    .default_binary = "/usr/sbin/nginx",
    .default_port = 18080,
    .missing_binary = "Debian: apt-get install nginx-light",
    .main_config = "nginx.conf",
    .workers_means = "worker_processes",
    .graceful_signal = SIGQUIT,  // graceful: finish requests in flight
};

class Nginx : public stand_proxy_kit::ProxyPlugin {
public:
    Nginx(const stand::cpp::Host& host, const json::object& config) : ProxyPlugin(host, config, kNginx) {}

private:
    // Run from the data dir as prefix, in the foreground, logs in it.
    std::vector<std::string> args(const fs::path& config) const {
        return {"-c", config.string(), "-p", data_dir().string(), "-e", (data_dir() / "error.log").string(),
                "-g", "daemon off;"};
    }

    std::vector<std::string> start_argv(const ProxySettings&) const override {
        auto argv = args(data_dir() / kNginx.main_config);
        argv.insert(argv.begin(), binary());
        return argv;
    }

    std::vector<stand_proxy_kit::ConfigFile> render_config(const ProxySettings& s) const override {
        return {{kNginx.main_config, stand_nginx::render_nginx_conf(s, data_dir().string())}};
    }

    std::optional<stand_proxy_kit::ConfigCheck> config_check(const fs::path& candidate) const override {
        fs::create_directories(data_dir() / "tmp");  // the temp paths nginx.conf names; `nginx -t` opens them
        auto argv = args(candidate);
        argv.insert(argv.begin(), {binary(), "-t", "-q"});
        return stand_proxy_kit::ConfigCheck{std::move(argv), "nginx -t"};
    }

    std::vector<std::string> version_argv() const override { return {binary(), "-v"}; }

    std::string version_from(const std::string& output) const override {
        std::smatch m;
        return std::regex_search(output, m, std::regex("nginx/([0-9.]+)")) ? m[1].str() : "";
    }

    bool upstream_pool_on(const ProxySettings& s) const override { return stand_nginx::upstream_pool_on(s); }

    json::value upstream_pool(const ProxySettings&, bool on) const override {
        if (!on) return "none: HTTP/1.0 and a new backend connection per request (nginx before 1.29.7)";
        return json::object{{"keepalive", stand_proxy_kit::kPoolIdlePerUpstream}, {"proxy_http_version", "1.1"}};
    }

    void add_defaults(json::object& d, const ProxySettings& s) const override {
        const auto& k = s.knobs;
        d["max_connections"] = k.max_connections.value_or(stand_nginx::kWorkerConnections);
        d["max_connections_note"] = "worker_connections per worker (nginx's own default: 512)";
        d["keepalive_requests"] = 1000000;
        d["websocket"] = k.websocket ? "Upgrade and Connection passed through"
                                     : "not passed (nginx needs proxy_set_header Upgrade)";
        if (k.tls) d["ssl_protocols"] = "TLSv1 TLSv1.1 TLSv1.2 (nginx 1.22's default: no TLSv1.3)";
    }
};

}  // namespace

STAND_PROXY_PLUGIN(Nginx, kNginx, "nginx", "0.3.0",
                   "Runs the installed nginx in the measured box: an origin answering 200, or a reverse proxy.")
