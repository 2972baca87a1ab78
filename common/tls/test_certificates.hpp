// Self-signed certificates for TLS measurements: one shared certificate per
// key type, made with OpenSSL and kept in a directory, so every proxy in a
// comparison serves the same key; a panel adapter makes its core's the same
// way. Used by the host and by plugins (common/: OpenSSL only).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace stand::tls {

struct CertificateFiles {
    std::string key_type;  // as given: "p256", "rsa2048", ...
    std::filesystem::path cert_file;
    std::filesystem::path key_file;
};

// The key types a scenario may ask for.
const std::vector<std::string>& known_key_types();  // p256, p384, ed25519, rsa2048, rsa3072, rsa4096

// Returns `dir`/<key_type>.crt and .key, making them when missing: a
// self-signed X.509 v3 certificate for CN=stand-test with subjectAltName
// DNS:localhost, IP:127.0.0.1, IP:::1, valid for 10 years from an hour ago;
// the key file is mode 0600. Throws std::invalid_argument naming an unknown
// key type, std::runtime_error with OpenSSL's reason otherwise.
CertificateFiles ensure_test_certificate(const std::filesystem::path& dir, const std::string& key_type);

// The DER bytes of the first certificate in a PEM file; throws
// std::runtime_error naming the file.
std::string certificate_file_der(const std::string& pem_file);

// The SHA-256 of that certificate's DER, lower-case hex: what a hysteria2://
// link's pinSHA256 names.
std::string certificate_sha256_hex(const std::string& pem_file);

}  // namespace stand::tls
