#include "hysteria/salamander.hpp"

#include <sodium.h>

#include <cstring>
#include <stdexcept>
#include <vector>

namespace stand::hysteria {
namespace {

void xor_with(const std::uint8_t* in, std::size_t len, const std::array<std::uint8_t, 32>& key, std::uint8_t* out) {
    for (std::size_t i = 0; i < len; ++i) out[i] = in[i] ^ key[i % 32];
}

}  // namespace

Salamander::Salamander(std::string psk) : psk_(std::move(psk)) {
    if (psk_.size() < 4) throw std::invalid_argument("the Salamander password must be at least 4 bytes");
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}

std::array<std::uint8_t, 32> Salamander::key_for(const std::uint8_t* salt) const noexcept {
    std::array<std::uint8_t, 32> key{};
    crypto_generichash_state state;
    crypto_generichash_init(&state, nullptr, 0, key.size());
    crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(psk_.data()), psk_.size());
    crypto_generichash_update(&state, salt, kSaltLength);
    crypto_generichash_final(&state, key.data(), key.size());
    return key;
}

std::size_t Salamander::obfuscate(const std::uint8_t* in, std::size_t len, std::uint8_t* out) noexcept {
    randombytes_buf(out, kSaltLength);
    const auto key = key_for(out);
    xor_with(in, len, key, out + kSaltLength);
    return len + kSaltLength;
}

std::size_t Salamander::deobfuscate(const std::uint8_t* in, std::size_t len, std::uint8_t* out) noexcept {
    if (len <= kSaltLength) return 0;
    const auto key = key_for(in);
    xor_with(in + kSaltLength, len - kSaltLength, key, out);
    return len - kSaltLength;
}

}  // namespace stand::hysteria
