#include "hysteria/hysteria_wire.hpp"

#include <sodium.h>

#include <stdexcept>

namespace stand::hysteria {
namespace {

// A QUIC varint at `pos`; nullopt when `buf` ends inside it.
std::optional<std::uint64_t> read_varint(const std::string& buf, std::size_t& pos) {
    if (pos >= buf.size()) return std::nullopt;
    const auto first = static_cast<std::uint8_t>(buf[pos]);
    const std::size_t len = std::size_t{1} << (first >> 6);
    if (pos + len > buf.size()) return std::nullopt;
    std::uint64_t v = first & 0x3f;
    for (std::size_t i = 1; i < len; ++i) v = (v << 8) | static_cast<std::uint8_t>(buf[pos + i]);
    pos += len;
    return v;
}

}  // namespace

void append_varint(std::string& out, std::uint64_t v) {
    if (v < 64) {
        out += static_cast<char>(v);
    } else if (v < 16384) {
        out += static_cast<char>(0x40 | (v >> 8));
        out += static_cast<char>(v & 0xff);
    } else if (v < (1ULL << 30)) {
        out += static_cast<char>(0x80 | (v >> 24));
        for (int s = 16; s >= 0; s -= 8) out += static_cast<char>((v >> s) & 0xff);
    } else {
        out += static_cast<char>(0xc0 | (v >> 56));
        for (int s = 48; s >= 0; s -= 8) out += static_cast<char>((v >> s) & 0xff);
    }
}

std::string random_padding(std::size_t min, std::size_t max) {
    static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const std::size_t len = min + randombytes_uniform(static_cast<std::uint32_t>(max - min));
    std::string out(len, 'a');
    for (auto& c : out) c = kChars[randombytes_uniform(62)];
    return out;
}

std::string encode_tcp_request(const std::string& address) {
    if (address.empty() || address.size() > kMaxAddressLength)
        throw std::invalid_argument("a Hysteria proxy address must be 1.." + std::to_string(kMaxAddressLength) +
                                    " bytes, got " + std::to_string(address.size()));
    const std::string padding = random_padding(64, 512);
    std::string out;
    out.reserve(8 + address.size() + padding.size());
    append_varint(out, kTcpRequestId);
    append_varint(out, address.size());
    out += address;
    append_varint(out, padding.size());
    out += padding;
    return out;
}

TcpResponseReader::State TcpResponseReader::feed(const std::uint8_t* data, std::size_t len, std::size_t& used) {
    used = 0;
    if (state_ != State::need_more) return state_;
    const std::size_t before = buffer_.size();
    buffer_.append(reinterpret_cast<const char*>(data), len);
    std::size_t pos = 0;
    if (buffer_.empty()) return state_;
    const auto status = static_cast<std::uint8_t>(buffer_[pos++]);
    auto msg_len = read_varint(buffer_, pos);
    if (!msg_len) {
        used = len;
        return state_;
    }
    if (*msg_len > kMaxMessageLength) return state_ = State::malformed;
    if (pos + *msg_len > buffer_.size()) {
        used = len;
        return state_;
    }
    std::string message = buffer_.substr(pos, *msg_len);
    pos += *msg_len;
    auto pad_len = read_varint(buffer_, pos);
    if (!pad_len) {
        used = len;
        return state_;
    }
    if (*pad_len > kMaxPaddingLength) return state_ = State::malformed;
    if (pos + *pad_len > buffer_.size()) {
        used = len;
        return state_;
    }
    pos += *pad_len;
    used = pos - before;
    message_ = std::move(message);
    buffer_.clear();
    return state_ = status == 0 ? State::ok : State::refused;
}

}  // namespace stand::hysteria
