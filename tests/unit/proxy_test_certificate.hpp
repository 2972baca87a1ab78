// A self-signed EC P-256 certificate for proxy plugin tests, made with the
// openssl command (stand.sh installs it).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace stand::test {

struct CertificateFiles {
    std::filesystem::path cert_file;
    std::filesystem::path key_file;
};

inline CertificateFiles make_p256_certificate(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    CertificateFiles f{dir / "p256.crt", dir / "p256.key"};
    const std::string command = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 "
                                "-subj /CN=stand-test -keyout '" + f.key_file.string() + "' -out '" +
                                f.cert_file.string() + "' >/dev/null 2>&1";
    if (std::system(command.c_str()) != 0) throw std::runtime_error("openssl could not make a test certificate");
    return f;
}

}  // namespace stand::test
