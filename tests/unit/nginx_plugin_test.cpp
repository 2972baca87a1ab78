// The nginx plugin driven through a plugin worker against the real nginx.
#include "host/http/http_service.hpp"
#include "isolation/plugin_worker.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"
#include "tls/peer_certificate.hpp"
#include "tls/test_certificates.hpp"

#include <doctest/doctest.h>

#include <boost/asio/ip/tcp.hpp>

#include <thread>

using namespace stand;
using namespace std::chrono_literals;

namespace {

std::uint16_t free_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor a(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return a.local_endpoint().port();
}

boost::json::object get(const std::string& url) {
    host::HttpService http({});
    auto s = http.open_session({});
    return http.request(s, {{"method", "GET"}, {"url", url}, {"timeout_ms", 2000}});
}

}  // namespace

TEST_CASE("nginx plugin: install, start, serve, stop and wipe the real nginx") {
    if (!std::filesystem::exists("/usr/sbin/nginx")) {
        MESSAGE("nginx is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir dir;
    isolation::WorkerOptions o;
    o.plugin_file = test::build_dir() / "plugins" / "nginx.so";
    o.plugin_id = "nginx";
    o.host.run_dir = dir.path();
    o.stand_binary = test::stand_binary();
    isolation::PluginWorker worker(o);
    auto port = free_port();
    auto created = worker.create(R"({"box": "", "port": )" + std::to_string(port) + R"(, "body": "hello"})", 10s);
    REQUIRE_MESSAGE(created.ok(), created.error);

    auto installed = worker.call("lifecycle.install", {}, 30s);
    REQUIRE_MESSAGE(installed.ok(), installed.error);
    auto facts = worker.call("lifecycle.facts", {}, 10s);
    REQUIRE(facts.ok());
    CHECK(facts.output.at("versions").at("nginx").as_string().starts_with("1."));

    auto ready = worker.call("lifecycle.readiness", {}, 10s);
    REQUIRE(ready.ok());
    std::string url(ready.output.at("url").as_string());
    CHECK(url == "http://127.0.0.1:" + std::to_string(port) + "/");

    REQUIRE(worker.call("lifecycle.start", {}, 10s).ok());
    boost::json::object response;
    for (int i = 0; i < 100; ++i) {
        try {
            response = get(url);
            break;
        } catch (const std::exception&) {
            std::this_thread::sleep_for(50ms);
        }
    }
    CHECK(response.at("status").to_number<std::int64_t>() == 200);
    CHECK(response.at("body") == "hello");
    CHECK(worker.call("lifecycle.start", {}, 10s).code == STAND_E_BAD_STATE);

    auto wipe_running = worker.call("lifecycle.wipe", {}, 10s);
    CHECK(wipe_running.code == STAND_E_BAD_STATE);
    REQUIRE(worker.call("lifecycle.stop", {}, 15s).ok());
    CHECK_THROWS(get(url));  // nothing listens any more
    CHECK(worker.call("lifecycle.stop", {}, 15s).code == STAND_OK_NOTHING_TO_DO);
    REQUIRE(worker.call("lifecycle.wipe", {}, 10s).ok());
    CHECK_FALSE(std::filesystem::exists(dir.path() / "data" / "nginx" / "nginx"));

    auto bad_knob = worker.call("proxy.configure", {{"knobs", {{"listen", {{"prot", 1}}}}}}, 10s);
    CHECK(bad_knob.code == STAND_E_INVALID_ARGUMENT);
    CHECK(bad_knob.error == "knobs.listen.prot: unknown key");
    CHECK(worker.shutdown(10s).ok());
}

TEST_CASE("nginx plugin: config errors name the field") {
    test::TempDir dir;
    isolation::WorkerOptions o;
    o.plugin_file = test::build_dir() / "plugins" / "nginx.so";
    o.plugin_id = "nginx";
    o.host.run_dir = dir.path();
    o.stand_binary = test::stand_binary();
    isolation::PluginWorker worker(o);
    auto created = worker.create(R"({"body": "a\"; evil"})", 10s);
    CHECK(created.code == STAND_E_INVALID_ARGUMENT);
    CHECK(created.error == "config.body: only letters, digits, space, '_', '.', '-' (at most 256)");
}

TEST_CASE("nginx plugin: TLS serves the given certificate, its key type is a default fact, nginx -t refuses a bad key") {
    if (!std::filesystem::exists("/usr/sbin/nginx")) {
        MESSAGE("nginx is not installed; ./stand.sh installs it");
        return;
    }
    test::TempDir dir;
    auto cert = tls::ensure_test_certificate(dir.path() / "certs", "p256");
    isolation::WorkerOptions o;
    o.plugin_file = test::build_dir() / "plugins" / "nginx.so";
    o.plugin_id = "nginx";
    o.host.run_dir = dir.path();
    o.stand_binary = test::stand_binary();
    isolation::PluginWorker worker(o);
    auto port = free_port();
    REQUIRE(worker.create(R"({"box": "", "port": )" + std::to_string(port) + "}", 10s).ok());
    boost::json::object knobs{{"listen", {{"tls", true}}},
                              {"tls_key", {{"cert_file", cert.cert_file.string()}, {"key_file", cert.key_file.string()}}}};
    auto configured = worker.call("proxy.configure", {{"knobs", knobs}}, 30s);
    REQUIRE_MESSAGE(configured.ok(), configured.error);
    auto endpoint = worker.call("proxy.endpoint", {}, 10s);
    REQUIRE(endpoint.ok());
    CHECK(endpoint.output.at("scheme") == "https");
    auto ready = worker.call("lifecycle.readiness", {}, 10s);
    CHECK(ready.output.at("insecure_tls") == true);
    auto defaults = worker.call("proxy.effective_defaults", {}, 30s);
    REQUIRE(defaults.ok());
    CHECK(defaults.output.at("tls_key_type") == "EC P-256");

    REQUIRE(worker.call("lifecycle.start", {}, 10s).ok());
    tls::PeerHandshake served;
    for (int i = 0; i < 100 && served.certificate_der.empty(); ++i) {
        try {
            served = tls::handshake_with("127.0.0.1", port, 2000ms);
        } catch (const std::exception&) {
            std::this_thread::sleep_for(50ms);
        }
    }
    CHECK(served.certificate_der == tls::certificate_file_der(cert.cert_file.string()));
    CHECK(served.alpn == "h2");
    CHECK(served.protocol == "TLSv1.2");  // nginx 1.22's default ssl_protocols stop at 1.2

    // A key of the same type that does not match the certificate: nginx -t says
    // no, the running config stays. (A key of another type is not a mismatch
    // to OpenSSL: it fills another certificate slot.)
    auto other = tls::ensure_test_certificate(dir.path() / "other-certs", "p256");
    boost::json::object mismatched{{"tls_key", {{"cert_file", cert.cert_file.string()}, {"key_file", other.key_file.string()}}}};
    auto refused = worker.call("proxy.configure", {{"knobs", mismatched}}, 30s);
    CHECK(refused.code == STAND_E_INVALID_ARGUMENT);
    CHECK(refused.error.find("nginx -t` rejected") != std::string::npos);
    REQUIRE(worker.call("lifecycle.restart", {}, 20s).ok());
    CHECK(worker.call("proxy.effective_defaults", {}, 30s).output.at("tls_key_type") == "EC P-256");
    REQUIRE(worker.call("lifecycle.stop", {}, 15s).ok());
    CHECK(worker.shutdown(10s).ok());
}
