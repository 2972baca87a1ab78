// Hysteria's Salamander obfuscation: every UDP packet on the wire is
// [8-byte random salt][payload XOR key], key = BLAKE2b-256(PSK || salt)
// (the native 32-byte digest, libsodium's crypto_generichash), repeated
// over the payload. Packets of 8 bytes or fewer are dropped.
#pragma once

#include "quic/packet_obfuscator.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace stand::hysteria {

class Salamander final : public quic::PacketObfuscator {
public:
    static constexpr std::size_t kSaltLength = 8;

    // Throws std::invalid_argument when the PSK is shorter than 4 bytes.
    explicit Salamander(std::string psk);

    std::size_t overhead() const noexcept override { return kSaltLength; }
    std::size_t obfuscate(const std::uint8_t* in, std::size_t len, std::uint8_t* out) noexcept override;
    std::size_t deobfuscate(const std::uint8_t* in, std::size_t len, std::uint8_t* out) noexcept override;

    // BLAKE2b-256(psk || salt), exposed for the test vector.
    std::array<std::uint8_t, 32> key_for(const std::uint8_t* salt) const noexcept;

private:
    std::string psk_;
};

}  // namespace stand::hysteria
