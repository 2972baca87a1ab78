#include <stand/kits/panel/totp.hpp>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstdio>
#include <stdexcept>

namespace stand_panel_kit {

std::vector<std::uint8_t> base32_decode(std::string_view text) {
    std::vector<std::uint8_t> out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (char c : text) {
        int v;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a';
        else if (c >= '2' && c <= '7') v = c - '2' + 26;
        else if (c == '=' || c == ' ' || c == '-') continue;
        else throw std::invalid_argument(std::string("base32: unexpected character '") + c + "'");
        buffer = (buffer << 5) | static_cast<std::uint32_t>(v);
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>((buffer >> bits) & 0xffU));
        }
    }
    return out;
}

std::string totp_code(const std::vector<std::uint8_t>& key, std::uint64_t unix_seconds, unsigned step_seconds,
                      unsigned digits) {
    std::uint64_t counter = unix_seconds / step_seconds;
    unsigned char msg[8];
    for (int i = 7; i >= 0; --i) {
        msg[i] = static_cast<unsigned char>(counter & 0xffU);
        counter >>= 8;
    }
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int mac_len = 0;
    if (HMAC(EVP_sha1(), key.data(), static_cast<int>(key.size()), msg, sizeof msg, mac, &mac_len) == nullptr ||
        mac_len < 20)
        throw std::runtime_error("totp: HMAC-SHA-1 failed");
    const unsigned offset = mac[mac_len - 1] & 0x0fU;
    const std::uint32_t binary = (static_cast<std::uint32_t>(mac[offset] & 0x7fU) << 24) |
                                 (static_cast<std::uint32_t>(mac[offset + 1]) << 16) |
                                 (static_cast<std::uint32_t>(mac[offset + 2]) << 8) | mac[offset + 3];
    std::uint32_t modulo = 1;
    for (unsigned i = 0; i < digits; ++i) modulo *= 10;
    char buf[16];
    std::snprintf(buf, sizeof buf, "%0*u", static_cast<int>(digits), binary % modulo);
    return buf;
}

std::string otpauth_secret(std::string_view uri) {
    auto q = uri.find('?');
    while (q != std::string_view::npos) {
        auto start = q + 1;
        auto end = uri.find('&', start);
        auto param = uri.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        if (param.substr(0, 7) == "secret=") return std::string(param.substr(7));
        q = end;
    }
    return {};
}

}  // namespace stand_panel_kit
