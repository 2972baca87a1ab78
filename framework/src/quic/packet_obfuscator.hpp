// A transform of every UDP payload below QUIC (Hysteria's Salamander). The
// connection calls it on its own thread only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stand::quic {

class PacketObfuscator {
public:
    virtual ~PacketObfuscator() = default;
    // How many bytes obfuscate() adds to a packet.
    virtual std::size_t overhead() const noexcept = 0;
    // Writes the wire form of `in` to `out` (room for len + overhead());
    // returns its length.
    virtual std::size_t obfuscate(const std::uint8_t* in, std::size_t len, std::uint8_t* out) noexcept = 0;
    // Writes the QUIC packet carried by `in` to `out` (room for len);
    // returns its length, 0 for a packet to drop.
    virtual std::size_t deobfuscate(const std::uint8_t* in, std::size_t len, std::uint8_t* out) noexcept = 0;
};

}  // namespace stand::quic
