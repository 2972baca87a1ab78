#include "text/utf8.hpp"

namespace stand::text {

Utf8Char decode_utf8(std::string_view bytes) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const unsigned char c = p[0];
    if (c < 0x80) return {c, 1};
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
    char32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
        if (c == 0xE0) lo = 0xA0;  // overlong
        if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
        if (c == 0xF0) lo = 0x90;  // overlong
        if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
    } else {
        return {};
    }
    if (bytes.size() < len || p[1] < lo || p[1] > hi) return {};
    for (std::size_t i = 1; i < len; ++i) {
        if (p[i] < 0x80 || p[i] > 0xBF) return {};
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    return {cp, len};
}

bool is_valid_utf8(std::string_view bytes) {
    while (!bytes.empty()) {
        const auto c = decode_utf8(bytes);
        if (c.length == 0) return false;
        bytes.remove_prefix(c.length);
    }
    return true;
}

}  // namespace stand::text
