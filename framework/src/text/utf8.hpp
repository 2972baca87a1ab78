// UTF-8 read strictly (RFC 3629): no overlong form, no surrogate, nothing
// past U+10FFFF.
#pragma once

#include <cstddef>
#include <string_view>

namespace stand::text {

struct Utf8Char {
    char32_t code_point = 0;
    std::size_t length = 0;  // 0: the bytes there are not a valid sequence
};

// The character `bytes` starts with (bytes not empty).
Utf8Char decode_utf8(std::string_view bytes);

bool is_valid_utf8(std::string_view bytes);

}  // namespace stand::text
