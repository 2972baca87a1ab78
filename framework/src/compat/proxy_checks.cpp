#include "compat/proxy_checks.hpp"

#include "box/box.hpp"
#include "box/group_name.hpp"
#include "host/plugin_host.hpp"
#include "isolation/interface_calls.hpp"
#include "target/backend_process.hpp"
#include "target/readiness_poll.hpp"
#include "tls/peer_certificate.hpp"
#include "tls/test_certificates.hpp"

#include <stand/stand.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>

namespace stand::compat {
namespace {

namespace json = boost::json;
namespace asio = boost::asio;
using Plugin = std::shared_ptr<loader::LoadedPlugin>;
using Clock = std::chrono::steady_clock;

struct CheckFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// install() said the system is not installed here: the check is skipped.
struct NotInstalled : std::runtime_error {
    using std::runtime_error::runtime_error;
};

constexpr int kPoolRequests = 20;

std::uint16_t free_port() {
    asio::io_context io;
    asio::ip::tcp::acceptor a(io, {asio::ip::make_address("127.0.0.1"), 0});
    return a.local_endpoint().port();
}

// One plugin instance in front of a fresh backend, inside the check's child.
class ProxyRig {
public:
    ProxyRig(const Plugin& plugin, const CompatOptions& options, const std::string& check)
        : plugin_(plugin), run_dir_(options.run_dir / check) {
        std::filesystem::create_directories(run_dir_);
        host::HostConfig config;
        config.run_dir = run_dir_;
        config.log = [](int, const std::string&, const std::string&) {};
        auto layout = box::detect_cgroup_layout();
        if (layout.backend) {
            box_ = std::make_unique<box::Box>(layout, "compat-" + box::new_run_id(), box::BoxPlan{.name = "measured"});
            config.boxes["measured"] = box_->dirs();
        }
        host_ = std::make_unique<host::PluginHost>(plugin->id, config);
        const std::string text = options.config_json;
        char message[1024] = {0};
        stand_error err{sizeof(stand_error), sizeof(message), message};
        if (plugin_->entry.create(host_->get(), text.data(), text.size(), &instance_, &err) < 0 || !instance_)
            throw CheckFailure(std::string("create() failed: ") + message);
        auto installed = isolation::call_interface(*plugin_, instance_, "lifecycle.install", {});
        if (installed.code == STAND_E_NOT_FOUND) throw NotInstalled(installed.error);
        if (installed.code < 0) throw CheckFailure("lifecycle.install failed: " + installed.error);
        target::BackendOptions b;
        b.stand_binary = options.stand_binary;
        b.log_file = run_dir_ / "backend.log";
        backend_ = std::make_unique<target::BackendProcess>(b, std::chrono::seconds(10));
        port_ = free_port();
    }

    ~ProxyRig() {
        if (instance_ == nullptr) return;
        if (started_) isolation::call_interface(*plugin_, instance_, "lifecycle.stop", {});
        isolation::call_interface(*plugin_, instance_, "lifecycle.wipe", {});
        plugin_->entry.destroy(instance_);
    }

    json::value call(const std::string& method, const json::object& args = {}) {
        auto out = isolation::call_interface(*plugin_, instance_, method, args);
        if (out.code < 0) throw CheckFailure(method + " failed with " + stand_result_name(out.code) + ": " + out.error);
        return out.output.empty() ? json::value(nullptr) : json::parse(out.output);
    }

    // configure() with the backend as upstream and the rig's port, plus `extra`.
    void configure(json::object extra) {
        json::object listen{{"host", "127.0.0.1"}, {"port", port_}};
        if (auto* l = extra.if_contains("listen"); l && l->is_object())
            for (const auto& [k, v] : l->as_object()) listen[k] = v;
        extra["listen"] = listen;
        extra["upstreams"] = json::array{json::object{{"host", backend_->host()}, {"port", backend_->port()}}};
        call("proxy.configure", {{"knobs", extra}});
    }

    void start_ready() {
        if (started_) {
            call("lifecycle.stop");
            started_ = false;
        }
        const auto t0 = Clock::now();
        call("lifecycle.start");
        started_ = true;
        auto readiness = call("lifecycle.readiness");
        if (!readiness.is_object()) throw CheckFailure("lifecycle.readiness returned no request");
        static const std::atomic<bool> never{false};
        try {
            target::poll_until_ready(host_->http(), readiness.as_object(), t0, std::chrono::milliseconds(50),
                                       std::chrono::milliseconds(2000), t0 + std::chrono::seconds(20), never,
                                       [this] { return host_->processes().ended(); });
        } catch (const target::ReadinessTimeout& e) {
            throw CheckFailure(e.what());
        } catch (const target::ReadinessExited& e) {
            throw CheckFailure(e.what());
        } catch (const std::exception& e) {
            throw CheckFailure(std::string("not ready: ") + e.what());
        }
    }

    std::string base_url() {
        auto e = call("proxy.endpoint");
        const auto* o = e.if_object();
        if (o == nullptr || !o->contains("scheme") || !o->contains("host") || !o->contains("port"))
            throw CheckFailure("proxy.endpoint did not return {scheme, host, port}: " + json::serialize(e));
        return std::string(o->at("scheme").as_string()) + "://" + std::string(o->at("host").as_string()) + ":" +
               std::to_string(o->at("port").to_number<int>());
    }

    // `n` GETs through the proxy on one keep-alive client session; all must be 200.
    void get(int n, bool insecure_tls = false) {
        auto session = host_->http().open_session({{"cookies", false}, {"timeout_ms", 5000}, {"insecure_tls", insecure_tls}});
        const std::string url = base_url() + "/";
        for (int i = 0; i < n; ++i) {
            json::object response;
            try {
                response = host_->http().request(session, {{"method", "GET"}, {"url", url}, {"label", "compat"}});
            } catch (const std::exception& e) {
                throw CheckFailure("GET " + url + " through the proxy: " + e.what());
            }
            const auto status = response.at("status").to_number<int>();
            if (status != 200) throw CheckFailure("GET " + url + " through the proxy answered " + std::to_string(status));
        }
        host_->http().close_session(session);
    }

    target::BackendProcess& backend() { return *backend_; }
    std::uint16_t port() const { return port_; }
    const std::filesystem::path& run_dir() const { return run_dir_; }

private:
    Plugin plugin_;
    std::filesystem::path run_dir_;
    std::unique_ptr<box::Box> box_;
    std::unique_ptr<host::PluginHost> host_;
    std::unique_ptr<target::BackendProcess> backend_;
    stand_instance* instance_ = nullptr;
    std::uint16_t port_ = 0;
    bool started_ = false;
};

template <class Body>
ChildResult guarded(const Plugin& plugin, const CompatOptions& options, const std::string& check, Body body) {
    try {
        ProxyRig rig(plugin, options, check);
        return {true, false, body(rig), 0};
    } catch (const NotInstalled& e) {
        return {false, true, std::string("skipped: the system is not installed here: ") + e.what(), 0};
    } catch (const CheckFailure& e) {
        return {false, false, e.what(), 0};
    } catch (const std::exception& e) {
        return {false, false, std::string("unexpected: ") + e.what(), 0};
    }
}

std::string proxied(ProxyRig& rig) {
    rig.configure({});
    rig.start_ready();
    const auto before = rig.backend().stats();
    rig.get(3);
    const auto after = rig.backend().stats();
    if (after.requests - before.requests < 3)
        throw CheckFailure("3 requests answered 200 but the backend served " +
                           std::to_string(after.requests - before.requests) + ": the proxy did not forward them");
    return "3 GETs through the proxy reached the backend";
}

// Backend connections accepted for kPoolRequests client requests on one
// keep-alive client connection.
std::uint64_t backend_conns(ProxyRig& rig, bool pool) {
    rig.configure({{"upstream_keepalive", pool}});
    rig.start_ready();
    const auto before = rig.backend().stats();
    rig.get(kPoolRequests);
    return rig.backend().stats().accepted - before.accepted;
}

std::string pool_changes_reuse(ProxyRig& rig) {
    const auto on = backend_conns(rig, true);
    const auto off = backend_conns(rig, false);
    const std::string counts = "pool on: " + std::to_string(on) + " backend connections, pool off: " +
                               std::to_string(off) + ", for " + std::to_string(kPoolRequests) + " requests";
    if (on > 2) throw CheckFailure(counts + ": with the pool on the proxy should reuse its backend connections");
    if (off < kPoolRequests) throw CheckFailure(counts + ": with the pool off every request should open one");
    return counts;
}

std::string tls_serves_certificate(ProxyRig& rig) {
    auto cert = tls::ensure_test_certificate(rig.run_dir() / "certs", "p256");
    rig.configure({{"listen", json::object{{"tls", true}}},
                   {"tls_key", json::object{{"cert_file", cert.cert_file.string()}, {"key_file", cert.key_file.string()}}}});
    rig.start_ready();
    tls::PeerHandshake served;
    try {
        served = tls::handshake_with("127.0.0.1", rig.port(), std::chrono::seconds(5));
    } catch (const std::exception& e) {
        throw CheckFailure(e.what());
    }
    if (served.certificate_der != tls::certificate_file_der(cert.cert_file.string()))
        throw CheckFailure("the proxy served a certificate other than " + cert.cert_file.string());
    rig.get(1, true);
    return "served " + cert.cert_file.filename().string() + " over " + served.protocol + " (" + served.cipher + ")";
}

std::string websocket_passes(ProxyRig& rig) {
    rig.configure({{"websocket", true}});
    rig.start_ready();
    const auto before = rig.backend().stats();
    namespace websocket = boost::beast::websocket;
    try {
        asio::io_context io;
        websocket::stream<asio::ip::tcp::socket> ws(io);
        ws.next_layer().connect({asio::ip::make_address("127.0.0.1"), rig.port()});
        ws.handshake("127.0.0.1:" + std::to_string(rig.port()), rig.backend().ws_path());
        const std::string text = "stand compat echo";
        ws.write(asio::buffer(text));
        boost::beast::flat_buffer reply;
        ws.read(reply);
        const std::string echoed = boost::beast::buffers_to_string(reply.data());
        ws.close(websocket::close_code::normal);
        if (echoed != text) throw CheckFailure("the websocket echo came back as \"" + echoed + "\"");
    } catch (const CheckFailure&) {
        throw;
    } catch (const std::exception& e) {
        throw CheckFailure("websocket upgrade through the proxy to " + rig.backend().ws_path() + ": " + e.what());
    }
    const auto sessions = rig.backend().stats().ws_sessions - before.ws_sessions;
    if (sessions != 1) throw CheckFailure("the backend saw " + std::to_string(sessions) + " websocket sessions, not 1");
    return "upgrade and one echo through the proxy";
}

}  // namespace

std::vector<Check> proxy_checks(const Plugin& plugin, const CompatOptions& options) {
    auto check = [&](const char* id, const char* what, std::string (*body)(ProxyRig&)) {
        return Check{id, what, true, [plugin, options, id, body] { return guarded(plugin, options, id, body); },
                     std::chrono::seconds(60)};
    };
    return {check("proxy.request-proxied", "the config is accepted by the binary and a request is proxied", proxied),
            check("proxy.pool-changes-reuse", "upstream_keepalive changes backend connection reuse (backend accepts)",
                  pool_changes_reuse),
            check("proxy.tls-serves-certificate", "TLS serves the given certificate", tls_serves_certificate),
            check("proxy.websocket-upgrade", "a websocket upgrade passes through to the backend", websocket_passes)};
}

}  // namespace stand::compat
