// Hysteria 2's own framing on a proxy stream (PROTOCOL.md "TCP"):
//   TCPRequest  = varint 0x401, varint addr len, "host:port", varint pad len, padding
//   TCPResponse = u8 status (0 ok), varint msg len, msg, varint pad len, padding
// and the random padding of the auth request. Varints are QUIC varints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace stand::hysteria {

inline constexpr std::uint64_t kTcpRequestId = 0x401;
inline constexpr std::size_t kMaxAddressLength = 2048;
inline constexpr std::size_t kMaxMessageLength = 2048;
inline constexpr std::size_t kMaxPaddingLength = 4096;
inline constexpr int kStatusAuthOk = 233;

void append_varint(std::string& out, std::uint64_t v);

// [a-zA-Z0-9] of a uniform length in [min, max).
std::string random_padding(std::size_t min, std::size_t max);

// The request for `address` ("host:port") with padding of 64..511 bytes, as
// the Go client sends. Throws std::invalid_argument for an empty or too long
// address.
std::string encode_tcp_request(const std::string& address);

// Reads a TCPResponse from the first bytes of a proxy stream, fed in pieces.
class TcpResponseReader {
public:
    enum class State { need_more, ok, refused, malformed };

    // Consumes bytes of `data` up to the end of the response; `used` says
    // how many. Bytes after it are relayed data.
    State feed(const std::uint8_t* data, std::size_t len, std::size_t& used);
    State state() const noexcept { return state_; }
    const std::string& message() const noexcept { return message_; }

private:
    std::string buffer_;
    State state_ = State::need_more;
    std::string message_;
};

}  // namespace stand::hysteria
