// The one adapter of the reverse-proxy plugins (stand.lifecycle/1 +
// stand.proxy/1): config, lifecycle, knobs, checked configs, version, facts
// and the defaults every proxy reports the same way. A proxy plugin is its
// ProxyTraits, its hooks (below) and its config renderer; it is declared
// with STAND_PROXY_PLUGIN, which also writes its config schema from the
// keys its traits declare (config_spec()), the ones the constructor reads.
//
// Threads: the host calls an instance from one thread at a time (sdk
// stand/plugin.h); hooks are called from those calls only.
#pragma once

#include <stand/kits/proxy/proxy_knobs.hpp>
#include <stand/kits/proxy/server_process.hpp>
#include <stand/kits/proxy/tool_run.hpp>

#include <stand/stand.hpp>

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace stand_proxy_kit {

struct ProxyTraits {
    std::string id;              // plugin id: starts every error, names the data dir and facts.versions
    std::string default_binary;  // config.binary's default
    std::uint16_t default_port;  // config.port's default
    std::string missing_binary;  // how to get one: said after "<id>: <binary> does not exist; "
    std::string main_config;     // the config file the proxy reads first, in its data dir ("nginx.conf")
    std::string workers_means;   // what config.workers / knobs.workers set ("nbthread", "GOMAXPROCS")
    int graceful_signal;         // lets the proxy finish requests in flight on stop()
    std::int64_t grace_ms = 10000;  // before SIGKILL
    bool origin_mode = true;     // answers by itself without upstreams; config.body exists
    bool go_runtime = false;     // a Go program: workers → GOMAXPROCS in its environment
};

// A config file in the proxy's data dir, rendered for some settings.
struct ConfigFile {
    std::string name;           // relative to the data dir
    std::string text;
    bool private_file = false;  // key material: mode 0600
};

// The proxy's own check of a config ("nginx -t"): `argv` checks the main
// config at the path it is given; `name` is how errors call it.
struct ConfigCheck {
    std::vector<std::string> argv;
    std::string name;
};

class ProxyPlugin : public stand::cpp::Instance, public stand::cpp::Lifecycle, public stand::cpp::Proxy {
public:
    // Reads config {binary, box, port, workers[, body]}; throws
    // stand::cpp::ConfigError naming the field.
    ProxyPlugin(const stand::cpp::Host& host, const boost::json::object& config, ProxyTraits traits);
    ~ProxyPlugin() override;

    stand_result install() override;  // the binary, its version, the config checked
    stand_result start() override;    // the checked config, then start_argv() in the box
    stand_result stop() override;
    stand_result restart() override;  // stop, then start (no proxy's hot reload)
    stand_result wipe() override;     // removes the data dir; refused while running
    boost::json::object readiness() override;
    boost::json::object facts() override;
    // Knobs apply to a copy, kept only when the proxy accepts the config: a
    // refused configure() leaves the previous settings in force.
    void configure(const boost::json::object& knobs) override;
    boost::json::object endpoint() override;
    // {version, workers, workers_means, access_log, <add_defaults>,
    //  [upstream_keepalive, upstream_keepalive_source, upstream_pool] with
    //  upstreams, [tls_key_type] with TLS}.
    boost::json::object effective_defaults() override;

protected:
    // --- hooks ---
    // The server's command line for `s` (the config files are written).
    virtual std::vector<std::string> start_argv(const ProxySettings& s) const = 0;
    // Config files for `s`, the main config (traits.main_config) among them.
    virtual std::vector<ConfigFile> render_config(const ProxySettings& s) const = 0;
    // The proxy's own check of the main config at `candidate`; nullopt: it
    // has none, and the files are written as they are.
    virtual std::optional<ConfigCheck> config_check(const std::filesystem::path& candidate) const {
        (void)candidate;
        return std::nullopt;
    }
    // Why the check refused, from its output.
    virtual std::string check_failure(const std::string& output) const { return output_tail(output); }
    // Refuses knobs the proxy cannot honour (stand::cpp::Error naming the knob).
    virtual void check_knobs(const ProxyKnobs& k) const { (void)k; }
    virtual std::vector<std::string> version_argv() const = 0;
    // The version in what version_argv() printed; empty: none there.
    virtual std::string version_from(const std::string& output) const = 0;
    // Whether backend connections are kept and reused (the knob, else the proxy's default).
    virtual bool upstream_pool_on(const ProxySettings& s) const = 0;
    // What that pool is (or that there is none), for upstream_pool.
    virtual boost::json::value upstream_pool(const ProxySettings& s, bool on) const = 0;
    // The proxy's own defaults: max_connections, websocket, TLS protocols, ...
    virtual void add_defaults(boost::json::object& d, const ProxySettings& s) const = 0;
    // More environment than GOMAXPROCS for the server and its tools.
    virtual boost::json::object extra_environment() const { return {}; }
    // More facts ("dynamic_config").
    virtual void add_facts(boost::json::object& facts) const { (void)facts; }

    // --- for the hooks ---
    const stand::cpp::Host& host() const { return host_; }
    const std::string& binary() const { return binary_; }
    const ProxyTraits& traits() const { return traits_; }
    std::filesystem::path data_dir() const;
    // The key type of the TLS certificate ("EC P-256"); throws naming knobs.tls_key.cert_file.
    std::string key_type(const ProxyKnobs& k) const;

private:
    boost::json::object environment(const ProxySettings& s) const;
    ToolRun run(const std::vector<std::string>& argv, const std::string& what, const ProxySettings& s) const;
    void check_binary() const;
    const std::string& version();
    void write_checked_config(const ProxySettings& s);

    stand::cpp::Host host_;
    ProxyTraits traits_;
    std::string binary_;
    std::string box_;
    std::string version_;
    std::string checked_;  // the config files' text the proxy last accepted
    ProxySettings settings_;
    ServerProcess server_;
};

// A proxy plugin's config keys, from its traits: binary, box, port,
// workers and, with an origin mode, body. The constructor reads them and the
// descriptor's schema is written from them.
stand::cpp::ConfigSpec config_spec(const ProxyTraits& traits);

}  // namespace stand_proxy_kit

// Declares the plugin entry of a ProxyPlugin subclass `Class` whose traits
// are `Traits` (a ProxyTraits with static storage); the schema comes from them.
#define STAND_PROXY_PLUGIN(Class, Traits, Name, Version, Description)                                 \
    namespace {                                                                                        \
    const ::stand::cpp::ConfigSpec& stand_proxy_config() {                                             \
        static const ::stand::cpp::ConfigSpec spec = ::stand_proxy_kit::config_spec(Traits);           \
        return spec;                                                                                   \
    }                                                                                                  \
    }                                                                                                  \
    STAND_CPP_PLUGIN(Class, (Traits).id.c_str(), Name, Version, Description, stand_proxy_config())
