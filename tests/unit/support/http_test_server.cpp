#include "../http_test_server.hpp"

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

#include <mutex>
#include <stdexcept>
#include <thread>

namespace stand::test {

struct HttpTestServer::State {
    State(Handler h, net::ssl::context* t)
        : handler(std::move(h)), tls(t), acceptor(ioc, {net::ip::make_address("127.0.0.1"), 0}),
          port(acceptor.local_endpoint().port()) {}

    net::awaitable<void> accept_loop() {
        for (;;) {
            net::ip::tcp::socket socket = co_await acceptor.async_accept(net::use_awaitable);
            {
                std::lock_guard lock(mutex);
                ++connections;
            }
            if (tls != nullptr)
                net::co_spawn(ioc, serve_tls(std::move(socket)), net::detached);
            else
                net::co_spawn(ioc, serve(beast::tcp_stream(std::move(socket))), net::detached);
        }
    }

    net::awaitable<void> serve_tls(net::ip::tcp::socket socket) {
        net::ssl::stream<beast::tcp_stream> stream(beast::tcp_stream(std::move(socket)), *tls);
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
                    std::lock_guard lock(mutex);
                    requests.push_back(request);
                }
                TestReply r = handler(request);
                if (r.action == TestReply::Action::close) co_return;
                if (r.action == TestReply::Action::hang) {
                    net::steady_timer forever(ioc, std::chrono::minutes(5));
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

    Handler handler;
    net::ssl::context* tls;
    net::io_context ioc;
    net::ip::tcp::acceptor acceptor;
    unsigned short port;
    std::thread thread;
    mutable std::mutex mutex;
    int connections = 0;
    std::vector<TestRequest> requests;
};

HttpTestServer::HttpTestServer(Handler handler, net::ssl::context* tls)
    : state_(std::make_unique<State>(std::move(handler), tls)) {
    net::co_spawn(state_->ioc, state_->accept_loop(), net::detached);
    state_->thread = std::thread([s = state_.get()] { s->ioc.run(); });
}

HttpTestServer::~HttpTestServer() {
    state_->ioc.stop();
    state_->thread.join();
}

unsigned short HttpTestServer::port() const { return state_->port; }

std::string HttpTestServer::url(const std::string& path, const std::string& host) const {
    return std::string(state_->tls ? "https" : "http") + "://" + host + ":" + std::to_string(port()) + path;
}

int HttpTestServer::connections() const {
    std::lock_guard lock(state_->mutex);
    return state_->connections;
}

std::vector<TestRequest> HttpTestServer::requests() const {
    std::lock_guard lock(state_->mutex);
    return state_->requests;
}

namespace {

void add_extension(X509* cert, int nid, const std::string& value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    if (ext == nullptr) throw std::runtime_error("bad X509 extension " + value);
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
}

template <class Write>
std::string to_pem(Write write) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    if (!bio || write(bio.get()) != 1) throw std::runtime_error("PEM encoding failed");
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
}

}  // namespace

TestCertificate TestCertificate::make(const std::string& common_name, const std::string& san) {
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), EVP_PKEY_free);
    std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), X509_free);
    if (!key || !cert) throw std::runtime_error("OpenSSL key/cert allocation failed");
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 86400);
    X509_set_pubkey(cert.get(), key.get());
    X509_NAME* name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(common_name.c_str()),
                               -1, -1, 0);
    X509_set_issuer_name(cert.get(), name);
    add_extension(cert.get(), NID_basic_constraints, "critical,CA:TRUE");
    add_extension(cert.get(), NID_subject_alt_name, san);
    if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) throw std::runtime_error("X509_sign failed");

    TestCertificate out;
    out.cert_pem = to_pem([&](BIO* bio) { return PEM_write_bio_X509(bio, cert.get()); });
    out.key_pem = to_pem([&](BIO* bio) {
        return PEM_write_bio_PrivateKey(bio, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    });
    return out;
}

std::unique_ptr<net::ssl::context> TestCertificate::server_context() const {
    auto ctx = std::make_unique<net::ssl::context>(net::ssl::context::tls_server);
    ctx->use_certificate_chain(net::buffer(cert_pem));
    ctx->use_private_key(net::buffer(key_pem), net::ssl::context::pem);
    return ctx;
}

}  // namespace stand::test
