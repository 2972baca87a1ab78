// What a TLS server actually serves: its leaf certificate and the protocol
// and cipher it negotiates with a default client, for compat checks and the
// report (TLS 1.2 against 1.3 changes a handshake's cost).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace stand::tls {

struct PeerHandshake {
    std::string certificate_der;  // the leaf certificate, DER bytes
    std::string protocol;         // "TLSv1.3"
    std::string cipher;           // "TLS_AES_256_GCM_SHA384"
    std::string alpn;             // negotiated ALPN, empty when none
};

// Connects to host:port (no certificate verification: the caller compares
// the certificate itself), offers ALPN h2 and http/1.1, and returns what was
// negotiated. Throws std::runtime_error naming host:port on any failure.
PeerHandshake handshake_with(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout);

}  // namespace stand::tls
