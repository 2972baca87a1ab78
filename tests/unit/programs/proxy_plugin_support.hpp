// Helpers of the proxy plugin tests: free ports, GETs through the host's
// HttpService, shell commands, test certificates and the one a port serves.
#pragma once

#include "tls/test_certificates.hpp"

#include "host/http/http_service.hpp"
#include "isolation/plugin_worker.hpp"
#include "test_paths.hpp"

#include <doctest/doctest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/json.hpp>

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

namespace stand::test {

inline std::uint16_t free_port() {
    boost::asio::io_context io;
    boost::asio::ip::tcp::acceptor a(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return a.local_endpoint().port();
}

// One GET; throws when nothing answers. insecure_tls: the test certificates are self-signed.
inline boost::json::object http_get(const std::string& url) {
    host::HttpService http({});
    auto s = http.open_session({{"insecure_tls", true}});
    return http.request(s, {{"method", "GET"}, {"url", url}, {"timeout_ms", 2000}});
}

// GETs until something answers (a proxy just started); empty after 5 s.
inline boost::json::object http_get_when_up(const std::string& url) {
    for (int i = 0; i < 100; ++i) {
        try {
            return http_get(url);
        } catch (const std::exception&) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    return {};
}

// Runs `command` in a shell; returns its exit status, stdout and stderr in `out`.
inline int run_shell(const std::string& command, std::string& out) {
    std::unique_ptr<FILE, decltype(&::pclose)> p(::popen((command + " 2>&1").c_str(), "r"), &::pclose);
    if (!p) return -1;
    char buf[512];
    while (std::fgets(buf, sizeof(buf), p.get()) != nullptr) out += buf;
    int status = ::pclose(p.release());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct TestCert {
    std::string cert;
    std::string key;
};

// A self-signed P-256 certificate for localhost and 127.0.0.1: the host's own
// test certificate (tls/test_certificates.hpp), as the scenarios use.
inline TestCert make_cert(const std::filesystem::path& dir) {
    const auto files = tls::ensure_test_certificate(dir, "p256");
    return {files.cert_file.string(), files.key_file.string()};
}

// The SHA-256 fingerprint of a PEM certificate file.
inline std::string cert_fingerprint(const std::string& cert_file) {
    std::string out;
    REQUIRE_MESSAGE(run_shell("openssl x509 -noout -fingerprint -sha256 -in " + cert_file, out) == 0, out);
    return out;
}

// The SHA-256 fingerprint of the certificate served on 127.0.0.1:port.
inline std::string served_cert_fingerprint(std::uint16_t port) {
    std::string out;
    const std::string addr = "127.0.0.1:" + std::to_string(port);
    REQUIRE_MESSAGE(run_shell("openssl s_client -connect " + addr + " </dev/null 2>/dev/null"
                              " | openssl x509 -noout -fingerprint -sha256",
                              out) == 0,
                    out);
    return out;
}

// A worker for build/plugins/<id>.so with its run dir in `run_dir`.
inline std::unique_ptr<isolation::PluginWorker> proxy_worker(const std::string& id,
                                                             const std::filesystem::path& run_dir) {
    isolation::WorkerOptions o;
    o.plugin_file = build_dir() / "plugins" / (id + ".so");
    o.plugin_id = id;
    o.host.run_dir = run_dir;
    o.stand_binary = stand_binary();
    return std::make_unique<isolation::PluginWorker>(o);
}

}  // namespace stand::test
