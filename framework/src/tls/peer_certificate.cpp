#include "tls/peer_certificate.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>

#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

namespace stand::tls {
namespace {

namespace asio = boost::asio;

std::string to_der(X509* cert) {
    unsigned char* der = nullptr;
    const int n = i2d_X509(cert, &der);
    if (n <= 0) throw std::runtime_error("cannot encode a certificate");
    std::string out(reinterpret_cast<const char*>(der), static_cast<std::size_t>(n));
    OPENSSL_free(der);
    return out;
}

}  // namespace

PeerHandshake handshake_with(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout) {
    const std::string where = host + ":" + std::to_string(port);
    asio::io_context io;
    asio::ssl::context ctx(asio::ssl::context::tls_client);
    ctx.set_verify_mode(asio::ssl::verify_none);
    asio::ssl::stream<asio::ip::tcp::socket> stream(io, ctx);
    static const unsigned char kAlpn[] = {2, 'h', '2', 8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
    SSL_set_alpn_protos(stream.native_handle(), kAlpn, sizeof(kAlpn));
    SSL_set_tlsext_host_name(stream.native_handle(), host.c_str());

    boost::system::error_code failure = asio::error::timed_out;
    bool done = false;
    asio::ip::tcp::resolver resolver(io);
    resolver.async_resolve(host, std::to_string(port), [&](auto ec, auto endpoints) {
        if (ec) return (void)(failure = ec, done = true);
        asio::async_connect(stream.lowest_layer(), endpoints, [&](auto ec2, auto) {
            if (ec2) return (void)(failure = ec2, done = true);
            stream.async_handshake(asio::ssl::stream_base::client, [&](auto ec3) {
                failure = ec3;
                done = true;
            });
        });
    });
    io.run_for(timeout);
    if (!done) throw std::runtime_error("TLS handshake with " + where + ": no answer in " +
                                        std::to_string(timeout.count()) + " ms");
    if (failure) throw std::runtime_error("TLS handshake with " + where + ": " + failure.message());

    SSL* ssl = stream.native_handle();
    X509* peer = SSL_get1_peer_certificate(ssl);
    if (peer == nullptr) throw std::runtime_error("TLS handshake with " + where + ": the server sent no certificate");
    PeerHandshake out;
    out.certificate_der = to_der(peer);
    X509_free(peer);
    out.protocol = SSL_get_version(ssl);
    out.cipher = SSL_CIPHER_get_name(SSL_get_current_cipher(ssl));
    const unsigned char* alpn = nullptr;
    unsigned int alpn_len = 0;
    SSL_get0_alpn_selected(ssl, &alpn, &alpn_len);
    if (alpn != nullptr) out.alpn.assign(reinterpret_cast<const char*>(alpn), alpn_len);
    boost::system::error_code ignored;
    stream.lowest_layer().close(ignored);
    return out;
}

}  // namespace stand::tls
