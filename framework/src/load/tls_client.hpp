// The load generator's TLS client side: one SSL_CTX shared by every thread
// (SSL_CTX is safe to share once configured), verification unless insecure,
// and session resumption only when asked for: each thread keeps the newest
// session per route and offers it on its next handshake to that route.
#pragma once

#include "load/load_plan.hpp"
#include "load/load_spec.hpp"

#include <boost/asio/ssl/context.hpp>

#include <openssl/ssl.h>

namespace stand::load {

class TlsClient {
public:
    // Throws LoadSpecError when the CA file cannot be loaded.
    explicit TlsClient(const TlsOptions& options);

    boost::asio::ssl::context& context() noexcept { return ctx_; }
    bool resume() const noexcept { return resume_; }

    // Before the handshake of a new connection: SNI, the name or address the
    // certificate must carry, and with resumption the session in `*slot` is
    // offered and the server's new sessions are stored into `*slot` (owned
    // by the caller, freed with SSL_SESSION_free).
    void prepare(SSL* ssl, const Origin& link, SSL_SESSION** slot) const;

private:
    boost::asio::ssl::context ctx_;
    bool insecure_;
    bool resume_;
};

}  // namespace stand::load
