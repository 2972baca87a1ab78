#include "tls/test_certificates.hpp"

#include <openssl/err.h>
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <sys/stat.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

namespace stand::tls {
namespace {

namespace fs = std::filesystem;

template <class T, void (*Free)(T*)>
struct Freer {
    void operator()(T* p) const { Free(p); }
};
template <class T, void (*Free)(T*)>
using Owned = std::unique_ptr<T, Freer<T, Free>>;

[[noreturn]] void fail(const std::string& what) {
    char reason[256] = {0};
    ERR_error_string_n(ERR_get_error(), reason, sizeof(reason));
    throw std::runtime_error("test certificate: " + what + ": " + reason);
}

EVP_PKEY* make_key(const std::string& type) {
    EVP_PKEY* key = nullptr;
    if (type == "p256") key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    else if (type == "p384") key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-384");
    else if (type == "ed25519") key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
    else if (type == "rsa2048") key = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(2048));
    else if (type == "rsa3072") key = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(3072));
    else if (type == "rsa4096") key = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(4096));
    else throw std::invalid_argument("unknown key type \"" + type + "\" (known: p256, p384, ed25519, rsa2048, rsa3072, rsa4096)");
    if (key == nullptr) fail("generating a " + type + " key");
    return key;
}

void add_extension(X509* cert, int nid, const char* value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
    Owned<X509_EXTENSION, X509_EXTENSION_free> ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value));
    if (!ext || X509_add_ext(cert, ext.get(), -1) != 1) fail(std::string("adding extension ") + OBJ_nid2sn(nid));
}

Owned<X509, X509_free> make_certificate(EVP_PKEY* key, bool digest_in_signature) {
    Owned<X509, X509_free> cert(X509_new());
    if (!cert) fail("X509_new");
    X509_set_version(cert.get(), 2);
    unsigned char serial[16];
    RAND_bytes(serial, sizeof(serial));
    serial[0] &= 0x7f;  // positive
    Owned<BIGNUM, BN_free> bn(BN_bin2bn(serial, sizeof(serial), nullptr));
    BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(cert.get()));
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 10L * 365 * 24 * 3600);
    X509_NAME* name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("stand-test"), -1, -1, 0);
    X509_set_issuer_name(cert.get(), name);
    X509_set_pubkey(cert.get(), key);
    add_extension(cert.get(), NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1");
    add_extension(cert.get(), NID_basic_constraints, "critical,CA:TRUE");
    add_extension(cert.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment,keyCertSign");
    add_extension(cert.get(), NID_ext_key_usage, "serverAuth");
    if (X509_sign(cert.get(), key, digest_in_signature ? EVP_sha256() : nullptr) <= 0) fail("signing");
    return cert;
}

// Writes through a temporary file renamed into place, so a concurrent
// reader never sees half a key.
template <class Write>
void write_pem(const fs::path& path, mode_t mode, Write write) {
    const fs::path tmp = path.string() + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "w");
    if (f == nullptr) throw std::runtime_error("test certificate: cannot write " + tmp.string());
    ::fchmod(::fileno(f), mode);
    const bool ok = write(f) == 1;
    if (std::fclose(f) != 0 || !ok) fail("writing " + path.string());
    fs::rename(tmp, path);
}

}  // namespace

const std::vector<std::string>& known_key_types() {
    static const std::vector<std::string> types{"p256", "p384", "ed25519", "rsa2048", "rsa3072", "rsa4096"};
    return types;
}

CertificateFiles ensure_test_certificate(const fs::path& dir, const std::string& key_type) {
    CertificateFiles files{key_type, dir / (key_type + ".crt"), dir / (key_type + ".key")};
    if (fs::exists(files.cert_file) && fs::exists(files.key_file)) return files;
    Owned<EVP_PKEY, EVP_PKEY_free> key(make_key(key_type));
    auto cert = make_certificate(key.get(), key_type != "ed25519");
    fs::create_directories(dir);
    write_pem(files.key_file, 0600,
              [&](FILE* f) { return PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr); });
    write_pem(files.cert_file, 0644, [&](FILE* f) { return PEM_write_X509(f, cert.get()); });
    return files;
}

std::string certificate_file_der(const std::string& pem_file) {
    std::unique_ptr<FILE, decltype(&std::fclose)> f(std::fopen(pem_file.c_str(), "r"), &std::fclose);
    if (!f) throw std::runtime_error("cannot open certificate " + pem_file);
    Owned<X509, X509_free> cert(PEM_read_X509(f.get(), nullptr, nullptr, nullptr));
    if (!cert) throw std::runtime_error(pem_file + " is not a PEM certificate");
    unsigned char* der = nullptr;
    const int n = i2d_X509(cert.get(), &der);
    if (n <= 0) throw std::runtime_error("cannot encode the certificate in " + pem_file);
    std::string out(reinterpret_cast<const char*>(der), static_cast<std::size_t>(n));
    OPENSSL_free(der);
    return out;
}

std::string certificate_sha256_hex(const std::string& pem_file) {
    const std::string der = certificate_file_der(pem_file);
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(der.data()), der.size(), digest);
    static const char* kHex = "0123456789abcdef";
    std::string out;
    for (unsigned char b : digest) {
        out += kHex[b >> 4];
        out += kHex[b & 15];
    }
    return out;
}

}  // namespace stand::tls
