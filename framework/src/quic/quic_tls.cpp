#include "quic/quic_tls.hpp"

#include "quic/gnutls_init.hpp"
#include "quic/quic_error.hpp"

#include <gnutls/crypto.h>
#include <gnutls/x509.h>
#include <ngtcp2/ngtcp2_crypto_gnutls.h>

#include <array>
#include <cctype>
#include <cstdio>

namespace stand::quic {
namespace {

// TLS 1.3 only, and no middlebox compatibility mode: QUIC forbids the
// dummy ChangeCipherSpec it sends.
constexpr const char* kPriority = "%DISABLE_TLS13_COMPAT_MODE:NORMAL:-VERS-ALL:+VERS-TLS1.3";

std::string hex(const unsigned char* data, std::size_t len) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(len * 2);
    for (std::size_t i = 0; i < len; ++i) {
        out += digits[data[i] >> 4];
        out += digits[data[i] & 15];
    }
    return out;
}

std::string gnutls_message(const char* what, int rv) {
    return std::string(what) + ": " + gnutls_strerror(rv);
}

int verify_peer(gnutls_session_t session) {
    auto* peer = reinterpret_cast<QuicTlsPeer*>(gnutls_session_get_ptr(session));
    const QuicTlsOptions& options = peer->context->options();
    // A pin authenticates the server by itself, as Xray's pinnedPeerCertSha256
    // does (what 3x-ui v3.6 emits as pinSHA256 for a self-signed core);
    // without one the chain and the name are verified unless insecure.
    if (!options.insecure && options.pin_sha256.empty()) {
        const std::string& name = options.verify_name.empty() ? options.sni : options.verify_name;
        unsigned status = 0;
        int rv = gnutls_certificate_verify_peers3(session, name.empty() ? nullptr : name.c_str(), &status);
        if (rv < 0) {
            peer->verify_error = gnutls_message("certificate verification", rv);
            return GNUTLS_E_CERTIFICATE_ERROR;
        }
        if (status != 0) {
            gnutls_datum_t text{};
            gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &text, 0);
            peer->verify_error = "certificate refused for \"" + name + "\": " +
                                 std::string(reinterpret_cast<const char*>(text.data), text.size);
            gnutls_free(text.data);
            return GNUTLS_E_CERTIFICATE_ERROR;
        }
    }
    if (!options.pin_sha256.empty()) {
        unsigned count = 0;
        const gnutls_datum_t* chain = gnutls_certificate_get_peers(session, &count);
        if (chain == nullptr || count == 0) {
            peer->verify_error = "the server sent no certificate to check the pin against";
            return GNUTLS_E_CERTIFICATE_ERROR;
        }
        std::array<unsigned char, 32> digest{};
        gnutls_hash_fast(GNUTLS_DIG_SHA256, chain[0].data, chain[0].size, digest.data());
        std::string got = hex(digest.data(), digest.size());
        if (got != options.pin_sha256) {
            peer->verify_error = "certificate pin mismatch: the leaf's SHA-256 is " + got + ", the pin is " +
                                 options.pin_sha256;
            return GNUTLS_E_CERTIFICATE_ERROR;
        }
    }
    return 0;
}

}  // namespace

std::string normalize_pin(const std::string& pin) {
    std::string out;
    for (char c : pin) {
        if (c == ':' || c == '-') continue;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

QuicTlsContext::QuicTlsContext(const QuicTlsOptions& options) : options_(options) {
    ensure_gnutls();
    options_.pin_sha256 = normalize_pin(options_.pin_sha256);
    if (!options_.pin_sha256.empty()) {
        bool hex_only = options_.pin_sha256.find_first_not_of("0123456789abcdef") == std::string::npos;
        if (options_.pin_sha256.size() != 64 || !hex_only)
            throw QuicSetupError("pinSHA256 \"" + options.pin_sha256 + "\" is not 64 hex digits");
    }
    if (int rv = gnutls_certificate_allocate_credentials(&cred_); rv < 0)
        throw QuicSetupError(gnutls_message("gnutls_certificate_allocate_credentials", rv));
    if (int rv = gnutls_certificate_set_x509_system_trust(cred_); rv < 0) {
        gnutls_certificate_free_credentials(cred_);
        throw QuicSetupError(gnutls_message("loading the system trust store", rv));
    }
    if (!options_.ca_file.empty()) {
        int rv = gnutls_certificate_set_x509_trust_file(cred_, options_.ca_file.c_str(), GNUTLS_X509_FMT_PEM);
        if (rv <= 0) {
            gnutls_certificate_free_credentials(cred_);
            throw QuicSetupError("CA file " + options_.ca_file + ": " +
                                 (rv == 0 ? std::string("no certificate in it") : gnutls_strerror(rv)));
        }
    }
    gnutls_certificate_set_verify_function(cred_, verify_peer);
}

QuicTlsContext::~QuicTlsContext() { gnutls_certificate_free_credentials(cred_); }

gnutls_session_t QuicTlsContext::make_session(QuicTlsPeer* peer) const {
    peer->context = this;
    gnutls_session_t session = nullptr;
    // No GNUTLS_ENABLE_EARLY_DATA: 0-RTT would make the first request
    // replayable, and a benchmark wants every handshake full.
    if (int rv = gnutls_init(&session, GNUTLS_CLIENT | GNUTLS_NO_END_OF_EARLY_DATA); rv < 0)
        throw QuicSetupError(gnutls_message("gnutls_init", rv));
    auto fail = [&](const char* what, int rv) {
        gnutls_deinit(session);
        throw QuicSetupError(gnutls_message(what, rv));
    };
    if (int rv = gnutls_priority_set_direct(session, kPriority, nullptr); rv < 0) fail("gnutls_priority_set_direct", rv);
    if (int rv = ngtcp2_crypto_gnutls_configure_client_session(session); rv != 0)
        fail("ngtcp2_crypto_gnutls_configure_client_session", GNUTLS_E_INTERNAL_ERROR);
    gnutls_session_set_ptr(session, &peer->ref);
    if (int rv = gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, cred_); rv < 0) fail("gnutls_credentials_set", rv);
    gnutls_datum_t alpn{reinterpret_cast<unsigned char*>(const_cast<char*>(options_.alpn.data())),
                        static_cast<unsigned>(options_.alpn.size())};
    if (int rv = gnutls_alpn_set_protocols(session, &alpn, 1, GNUTLS_ALPN_MANDATORY); rv < 0)
        fail("gnutls_alpn_set_protocols", rv);
    if (!options_.sni.empty()) {
        if (int rv = gnutls_server_name_set(session, GNUTLS_NAME_DNS, options_.sni.data(), options_.sni.size()); rv < 0)
            fail("gnutls_server_name_set", rv);
    }
    return session;
}

}  // namespace stand::quic
