// A self-signed EC P-256 certificate for proxy plugin tests: the host's own
// test certificate (tls/test_certificates.hpp), as the scenarios use.
#pragma once

#include "tls/test_certificates.hpp"

#include <filesystem>

namespace stand::test {

struct CertificateFiles {
    std::filesystem::path cert_file;
    std::filesystem::path key_file;
};

inline CertificateFiles make_p256_certificate(const std::filesystem::path& dir) {
    const auto files = tls::ensure_test_certificate(dir, "p256");
    return {files.cert_file, files.key_file};
}

}  // namespace stand::test
