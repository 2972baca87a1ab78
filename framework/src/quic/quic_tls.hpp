// The TLS 1.3 side of a QUIC client, on GnuTLS (Debian 12's OpenSSL 3.0 has
// no QUIC API; ngtcp2's crypto backend for GnuTLS is packaged). One
// QuicTlsContext holds the trust anchors and is shared by the connections of
// one thread; each connection gets its own session from make_session().
#pragma once

#include <gnutls/gnutls.h>
#include <ngtcp2/ngtcp2_crypto.h>

#include <string>

namespace stand::quic {

struct QuicTlsOptions {
    std::string sni;          // sent as server name; empty: none
    std::string verify_name;  // the name (or address) the certificate must carry; empty: sni
    std::string alpn = "h3";
    bool insecure = false;    // skip chain and name verification (the pin still applies)
    std::string ca_file;      // extra trust anchors (PEM); the system store too
    std::string pin_sha256;   // lower-case hex SHA-256 of the leaf DER; empty: no pin. A pin is
                              // the whole check: chain and name are not verified (Xray's
                              // pinnedPeerCertSha256; the Hysteria app also needs insecure)
};

// Lower-case hex without ':' or '-' (how hysteria2:// links write pins).
std::string normalize_pin(const std::string& pin);

// What a session needs from its connection. `ref` must stay the first
// member: the session's pointer is &ref, and verification finds the rest
// from it.
struct QuicTlsPeer {
    ngtcp2_crypto_conn_ref ref{};
    const class QuicTlsContext* context = nullptr;
    std::string verify_error;  // why the peer's certificate was refused
};

class QuicTlsContext {
public:
    // Throws QuicSetupError when the CA file cannot be loaded.
    explicit QuicTlsContext(const QuicTlsOptions& options);
    ~QuicTlsContext();
    QuicTlsContext(const QuicTlsContext&) = delete;
    QuicTlsContext& operator=(const QuicTlsContext&) = delete;

    const QuicTlsOptions& options() const noexcept { return options_; }

    // A client session configured for QUIC (TLS 1.3 only, no middlebox
    // compatibility mode, mandatory ALPN, SNI, certificate verification and
    // the pin). `peer` must outlive the session. The caller frees the
    // session with gnutls_deinit. Throws QuicSetupError.
    gnutls_session_t make_session(QuicTlsPeer* peer) const;

private:
    QuicTlsOptions options_;
    gnutls_certificate_credentials_t cred_ = nullptr;
};

}  // namespace stand::quic
