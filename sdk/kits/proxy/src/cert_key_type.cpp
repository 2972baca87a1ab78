#include <stand/kits/proxy/cert_key_type.hpp>

#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

namespace stand_proxy_kit {

namespace {

std::string ec_curve_name(const EVP_PKEY* key) {
    char group[80] = {0};
    std::size_t len = 0;
    if (EVP_PKEY_get_group_name(key, group, sizeof(group), &len) != 1) return "EC";
    int nid = OBJ_sn2nid(group);
    const char* nist = nid == NID_undef ? nullptr : EC_curve_nid2nist(nid);
    return std::string("EC ") + (nist != nullptr ? nist : group);
}

}  // namespace

std::string cert_key_type(const std::string& cert_file) {
    std::unique_ptr<FILE, decltype(&std::fclose)> f(std::fopen(cert_file.c_str(), "r"), &std::fclose);
    if (!f) throw std::runtime_error("cannot open certificate " + cert_file);
    std::unique_ptr<X509, decltype(&X509_free)> cert(PEM_read_X509(f.get(), nullptr, nullptr, nullptr), &X509_free);
    if (!cert) throw std::runtime_error(cert_file + " is not a PEM certificate");
    const EVP_PKEY* key = X509_get0_pubkey(cert.get());
    if (key == nullptr) throw std::runtime_error(cert_file + ": cannot read the public key");
    switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA: return "RSA " + std::to_string(EVP_PKEY_get_bits(key));
    case EVP_PKEY_EC: return ec_curve_name(key);
    case EVP_PKEY_ED25519: return "Ed25519";
    case EVP_PKEY_ED448: return "Ed448";
    default: return std::string(OBJ_nid2sn(EVP_PKEY_get_base_id(key))) + " " + std::to_string(EVP_PKEY_get_bits(key));
    }
}

}  // namespace stand_proxy_kit
