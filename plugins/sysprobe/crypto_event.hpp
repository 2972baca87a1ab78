// The two `openssl speed` loops the article runs, one EVP call per buffer as
// apps/speed.c does: `-evp aes-256-cbc` is EVP_EncryptUpdate in place with
// one context set up once (EVP_Update_loop), `sha256` is one EVP_Digest of
// the whole buffer with a digest fetched once (EVP_Digest_loop).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

struct evp_cipher_ctx_st;
struct evp_md_st;

namespace stand_sysprobe {

// "OpenSSL 3.0.x  <date>" of the library actually loaded.
std::string openssl_version();

class AesCbcEncryptor {
public:
    static constexpr std::size_t kKeyBytes = 32, kIvBytes = 16, kBlockBytes = 16;
    AesCbcEncryptor(std::span<const std::uint8_t, kKeyBytes> key, std::span<const std::uint8_t, kIvBytes> iv);
    ~AesCbcEncryptor();
    AesCbcEncryptor(const AesCbcEncryptor&) = delete;
    AesCbcEncryptor& operator=(const AesCbcEncryptor&) = delete;

    // Encrypts `data` in place, continuing the CBC chain; its size must be a
    // multiple of 16 bytes.
    void encrypt_in_place(std::span<std::uint8_t> data);

private:
    evp_cipher_ctx_st* ctx_ = nullptr;
};

class Sha256Digest {
public:
    static constexpr std::size_t kDigestBytes = 32;
    Sha256Digest();
    ~Sha256Digest();
    Sha256Digest(const Sha256Digest&) = delete;
    Sha256Digest& operator=(const Sha256Digest&) = delete;

    std::array<std::uint8_t, kDigestBytes> digest(std::span<const std::uint8_t> data) const;

private:
    evp_md_st* md_ = nullptr;
};

}  // namespace stand_sysprobe
