#include "crypto_event.hpp"

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <climits>
#include <stdexcept>

namespace stand_sysprobe {
namespace {

[[noreturn]] void fail(const std::string& what) {
    char text[256] = "no OpenSSL error queued";
    if (unsigned long e = ERR_get_error(); e != 0) ERR_error_string_n(e, text, sizeof(text));
    ERR_clear_error();
    throw std::runtime_error(what + ": " + text);
}

}  // namespace

std::string openssl_version() { return OpenSSL_version(OPENSSL_VERSION); }

AesCbcEncryptor::AesCbcEncryptor(std::span<const std::uint8_t, kKeyBytes> key,
                                 std::span<const std::uint8_t, kIvBytes> iv) {
    EVP_CIPHER* cipher = EVP_CIPHER_fetch(nullptr, "AES-256-CBC", nullptr);
    if (cipher == nullptr) fail("EVP_CIPHER_fetch(AES-256-CBC)");
    ctx_ = EVP_CIPHER_CTX_new();
    const bool ok = ctx_ != nullptr && EVP_EncryptInit_ex2(ctx_, cipher, key.data(), iv.data(), nullptr) == 1;
    EVP_CIPHER_free(cipher);
    if (!ok) {
        EVP_CIPHER_CTX_free(ctx_);
        fail("EVP_EncryptInit_ex2(AES-256-CBC)");
    }
}

AesCbcEncryptor::~AesCbcEncryptor() { EVP_CIPHER_CTX_free(ctx_); }

void AesCbcEncryptor::encrypt_in_place(std::span<std::uint8_t> data) {
    if (data.size() % kBlockBytes != 0 || data.size() > static_cast<std::size_t>(INT_MAX))
        throw std::invalid_argument("AES-256-CBC: " + std::to_string(data.size()) +
                                    " bytes is not a multiple of 16 below 2 GiB");
    int written = 0;
    if (EVP_EncryptUpdate(ctx_, data.data(), &written, data.data(), static_cast<int>(data.size())) != 1)
        fail("EVP_EncryptUpdate(AES-256-CBC)");
    if (static_cast<std::size_t>(written) != data.size())
        throw std::runtime_error("EVP_EncryptUpdate(AES-256-CBC) wrote " + std::to_string(written) + " of " +
                                 std::to_string(data.size()) + " bytes");
}

Sha256Digest::Sha256Digest() : md_(EVP_MD_fetch(nullptr, "SHA256", nullptr)) {
    if (md_ == nullptr) fail("EVP_MD_fetch(SHA256)");
}

Sha256Digest::~Sha256Digest() { EVP_MD_free(md_); }

std::array<std::uint8_t, Sha256Digest::kDigestBytes> Sha256Digest::digest(std::span<const std::uint8_t> data) const {
    std::array<std::uint8_t, kDigestBytes> out{};
    unsigned int size = 0;
    if (EVP_Digest(data.data(), data.size(), out.data(), &size, md_, nullptr) != 1) fail("EVP_Digest(SHA256)");
    if (size != kDigestBytes) throw std::runtime_error("EVP_Digest(SHA256) returned " + std::to_string(size) + " bytes");
    return out;
}

}  // namespace stand_sysprobe
