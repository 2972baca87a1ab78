// Encodings between HTTP bodies and the JSON documents of stand.http/1.
#pragma once

#include "text/utf8.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stand::host::http {

// Strict UTF-8: no overlong forms, surrogates or code points past U+10FFFF.
using text::is_valid_utf8;

std::string base64_encode(std::string_view bytes);

// application/x-www-form-urlencoded, fields in the given order.
std::string form_urlencode(const std::vector<std::pair<std::string, std::string>>& fields);

}  // namespace stand::host::http
