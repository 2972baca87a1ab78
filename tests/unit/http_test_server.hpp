// A scriptable HTTP/1.1 (optionally TLS) server on 127.0.0.1 for the tests
// of the host's HTTP client, and a self-signed certificate maker.
#pragma once

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace stand::test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;

using TestRequest = bhttp::request<bhttp::string_body>;
using TestResponse = bhttp::response<bhttp::string_body>;

struct TestReply {
    enum class Action {
        respond,            // send `response`, keep the connection if the client wants
        respond_then_close, // send `response` (claiming keep-alive), then drop the connection
        close,              // drop the connection without answering
        hang,               // never answer
    };
    TestResponse response;
    Action action = Action::respond;
};

inline TestReply reply(unsigned status, std::string body = {},
                       std::vector<std::pair<std::string, std::string>> headers = {}) {
    TestReply r;
    r.response.result(status);
    r.response.body() = std::move(body);
    for (auto& [name, value] : headers) r.response.insert(name, value);
    return r;
}

class HttpTestServer {
public:
    using Handler = std::function<TestReply(const TestRequest&)>;

    // `tls` (optional) must outlive the server.
    explicit HttpTestServer(Handler handler, net::ssl::context* tls = nullptr)
        : handler_(std::move(handler)), tls_(tls),
          acceptor_(ioc_, {net::ip::make_address("127.0.0.1"), 0}),
          port_(acceptor_.local_endpoint().port()) {
        net::co_spawn(ioc_, accept_loop(), net::detached);
        thread_ = std::thread([this] { ioc_.run(); });
    }
    ~HttpTestServer() {
        ioc_.stop();
        thread_.join();
    }
    HttpTestServer(const HttpTestServer&) = delete;
    HttpTestServer& operator=(const HttpTestServer&) = delete;

    unsigned short port() const { return port_; }
    std::string url(const std::string& path, const std::string& host = "127.0.0.1") const {
        return std::string(tls_ ? "https" : "http") + "://" + host + ":" + std::to_string(port()) +
               path;
    }
    int connections() const {
        std::lock_guard lock(mutex_);
        return connections_;
    }
    std::vector<TestRequest> requests() const {
        std::lock_guard lock(mutex_);
        return requests_;
    }

private:
    net::awaitable<void> accept_loop() {
        for (;;) {
            net::ip::tcp::socket socket = co_await acceptor_.async_accept(net::use_awaitable);
            {
                std::lock_guard lock(mutex_);
                ++connections_;
            }
            if (tls_ != nullptr)
                net::co_spawn(ioc_, serve_tls(std::move(socket)), net::detached);
            else
                net::co_spawn(ioc_, serve(beast::tcp_stream(std::move(socket))), net::detached);
        }
    }

    net::awaitable<void> serve_tls(net::ip::tcp::socket socket) {
        net::ssl::stream<beast::tcp_stream> stream(beast::tcp_stream(std::move(socket)), *tls_);
        try {
            co_await stream.async_handshake(net::ssl::stream_base::server, net::use_awaitable);
        } catch (const std::exception&) {
            co_return;  // the client refused our certificate
        }
        co_await serve(std::move(stream));
    }

    template <class Stream>
    net::awaitable<void> serve(Stream stream) {
        try {
            beast::flat_buffer buffer;
            for (;;) {
                TestRequest request;
                co_await bhttp::async_read(stream, buffer, request, net::use_awaitable);
                {
                    std::lock_guard lock(mutex_);
                    requests_.push_back(request);
                }
                TestReply r = handler_(request);
                if (r.action == TestReply::Action::close) co_return;
                if (r.action == TestReply::Action::hang) {
                    net::steady_timer forever(ioc_, std::chrono::minutes(5));
                    co_await forever.async_wait(net::use_awaitable);
                    co_return;
                }
                r.response.version(11);
                r.response.keep_alive(request.keep_alive());
                r.response.prepare_payload();
                co_await bhttp::async_write(stream, r.response, net::use_awaitable);
                if (r.action == TestReply::Action::respond_then_close || !request.keep_alive())
                    co_return;
            }
        } catch (const std::exception&) {
            // The client went away; nothing to do.
        }
    }

    Handler handler_;
    net::ssl::context* tls_;
    net::io_context ioc_;
    net::ip::tcp::acceptor acceptor_;
    unsigned short port_;
    std::thread thread_;
    mutable std::mutex mutex_;
    int connections_ = 0;
    std::vector<TestRequest> requests_;
};

// A self-signed P-256 certificate that is its own trust anchor.
struct TestCertificate {
    std::string cert_pem;
    std::string key_pem;

    // `san` as in openssl.cnf: "DNS:localhost,IP:127.0.0.1".
    static TestCertificate make(const std::string& common_name, const std::string& san) {
        std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), EVP_PKEY_free);
        std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), X509_free);
        if (!key || !cert) throw std::runtime_error("OpenSSL key/cert allocation failed");
        X509_set_version(cert.get(), 2);
        ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
        X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
        X509_gmtime_adj(X509_getm_notAfter(cert.get()), 86400);
        X509_set_pubkey(cert.get(), key.get());
        X509_NAME* name = X509_get_subject_name(cert.get());
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                   reinterpret_cast<const unsigned char*>(common_name.c_str()), -1,
                                   -1, 0);
        X509_set_issuer_name(cert.get(), name);
        add_extension(cert.get(), NID_basic_constraints, "critical,CA:TRUE");
        add_extension(cert.get(), NID_subject_alt_name, san);
        if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0)
            throw std::runtime_error("X509_sign failed");

        TestCertificate out;
        out.cert_pem = to_pem([&](BIO* bio) { return PEM_write_bio_X509(bio, cert.get()); });
        out.key_pem = to_pem([&](BIO* bio) {
            return PEM_write_bio_PrivateKey(bio, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
        });
        return out;
    }

    std::unique_ptr<net::ssl::context> server_context() const {
        auto ctx = std::make_unique<net::ssl::context>(net::ssl::context::tls_server);
        ctx->use_certificate_chain(net::buffer(cert_pem));
        ctx->use_private_key(net::buffer(key_pem), net::ssl::context::pem);
        return ctx;
    }

private:
    static void add_extension(X509* cert, int nid, const std::string& value) {
        X509V3_CTX ctx;
        X509V3_set_ctx_nodb(&ctx);
        X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
        X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
        if (ext == nullptr) throw std::runtime_error("bad X509 extension " + value);
        X509_add_ext(cert, ext, -1);
        X509_EXTENSION_free(ext);
    }

    template <class Write>
    static std::string to_pem(Write write) {
        std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
        if (!bio || write(bio.get()) != 1) throw std::runtime_error("PEM encoding failed");
        char* data = nullptr;
        const long n = BIO_get_mem_data(bio.get(), &data);
        return std::string(data, static_cast<std::size_t>(n));
    }
};

}  // namespace stand::test
