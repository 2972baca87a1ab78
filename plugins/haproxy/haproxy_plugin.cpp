// haproxy: runs the installed haproxy in the measured box, as an origin that
// answers `200 ok` or as a reverse proxy in front of upstreams
// (stand.lifecycle/1 + stand.proxy/1, through proxy-kit's ProxyPlugin).
// Every config is checked with `haproxy -c` before use.
#include <stand/kits/proxy/config_files.hpp>
#include "haproxy_check_output.hpp"
#include "haproxy_config.hpp"
#include <stand/kits/proxy/proxy_plugin.hpp>

#include <csignal>
#include <filesystem>

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using stand_proxy_kit::ProxySettings;

constexpr const char* kReuseDoc = "https://docs.haproxy.org/2.6/configuration.html#4.2-http-reuse";
constexpr const char* kPem = "tls.pem";

const stand_proxy_kit::ProxyTraits kHaproxy{
    .id = "haproxy",
    .default_binary = "/usr/sbin/haproxy",
    .default_port = 18081,
    .missing_binary = "Debian: apt-get install haproxy",
    .main_config = "haproxy.cfg",
    .workers_means = "nbthread: threads of one haproxy process",
    .graceful_signal = SIGUSR1,  // soft stop: finish requests in flight
};

class Haproxy : public stand_proxy_kit::ProxyPlugin {
public:
    Haproxy(const stand::cpp::Host& host, const json::object& config) : ProxyPlugin(host, config, kHaproxy) {}

private:
    std::vector<std::string> start_argv(const ProxySettings&) const override {
        return {binary(), "-f", (data_dir() / kHaproxy.main_config).string(), "-db"};
    }

    // haproxy.cfg, and with TLS the PEM `bind ... ssl crt` reads: cert and key in one file.
    std::vector<stand_proxy_kit::ConfigFile> render_config(const ProxySettings& s) const override {
        stand_haproxy::HaproxySettings h;
        static_cast<ProxySettings&>(h) = s;
        if (s.knobs.tls) h.tls_pem = (data_dir() / kPem).string();
        std::vector<stand_proxy_kit::ConfigFile> files{{kHaproxy.main_config, stand_haproxy::render_haproxy_cfg(h)}};
        if (s.knobs.tls) {
            std::string cert = stand_proxy_kit::read_file(s.knobs.cert_file, "knobs.tls_key.cert_file", "haproxy");
            if (!cert.ends_with('\n')) cert += '\n';
            files.push_back(
                {kPem, cert + stand_proxy_kit::read_file(s.knobs.key_file, "knobs.tls_key.key_file", "haproxy"), true});
        }
        return files;
    }

    std::optional<stand_proxy_kit::ConfigCheck> config_check(const fs::path& candidate) const override {
        return stand_proxy_kit::ConfigCheck{{binary(), "-c", "-f", candidate.string()}, "haproxy -c"};
    }

    std::string check_failure(const std::string& output) const override {
        std::string why = stand_haproxy::check_alerts(output);
        return why.empty() ? stand_proxy_kit::output_tail(output) : why;
    }

    std::vector<std::string> version_argv() const override { return {binary(), "-v"}; }

    std::string version_from(const std::string& output) const override {
        return stand_haproxy::version_from_banner(stand_haproxy::first_line(output));
    }

    bool upstream_pool_on(const ProxySettings& s) const override { return stand_haproxy::upstream_pool_on(s); }

    // haproxy 2.6's documented defaults for an idle server connection pool.
    json::value upstream_pool(const ProxySettings&, bool on) const override {
        if (!on)
            return "none: option http-server-close closes the server connection after each response; "
                   "client connections stay keep-alive";
        return json::object{{"http_reuse", "safe"}, {"pool_max_conn", "unlimited (-1)"},
                            {"pool_purge_delay", "5s"}, {"pool_low_conn", 0}, {"doc", kReuseDoc}};
    }

    void add_defaults(json::object& d, const ProxySettings& s) const override {
        const auto& k = s.knobs;
        d["max_connections"] = k.max_connections
                                   ? json::value(*k.max_connections)
                                   : json::value("global maxconn unset: haproxy derives it from the file "
                                                 "descriptor limit (ulimit -n) when it starts");
        d["max_connections_source"] = k.max_connections ? "knob" : "haproxy default";
        d["websocket"] = k.websocket ? "upgrades pass; an idle tunnel lasts up to timeout tunnel " +
                                           std::string(stand_haproxy::kTunnelTimeout)
                                     : std::string("upgrades pass (haproxy default); an idle tunnel closes after "
                                                   "timeout client/server 30s");
        if (k.tls) d["alpn"] = stand_haproxy::kAlpn;
    }
};

}  // namespace

STAND_PROXY_PLUGIN(Haproxy, kHaproxy, "HAProxy", "0.3.0",
                   "Runs the installed haproxy in the measured box: an origin answering 200, or a reverse proxy.")
