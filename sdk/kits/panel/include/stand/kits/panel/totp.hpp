// RFC 6238 TOTP (HMAC-SHA-1, 6 digits by default) from a base32 secret
// (RFC 4648, padding and case ignored), with HMAC from OpenSSL.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stand_panel_kit {

// Throws std::invalid_argument on a character outside the base32 alphabet.
std::vector<std::uint8_t> base32_decode(std::string_view text);

// The code for Unix time `unix_seconds`: counter = floor(t / step).
std::string totp_code(const std::vector<std::uint8_t>& key, std::uint64_t unix_seconds, unsigned step_seconds = 30,
                      unsigned digits = 6);

// The secret of an otpauth:// URI (its "secret" query parameter), or "".
std::string otpauth_secret(std::string_view uri);

}  // namespace stand_panel_kit
