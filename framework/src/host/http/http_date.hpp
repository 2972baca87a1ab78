// HTTP dates (Retry-After, cookie Expires) and the Retry-After rule.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace stand::host::http {

// Parses IMF-fixdate, RFC 850 and asctime dates, and the looser cookie
// variants, with the RFC 6265 5.1.1 algorithm. nullopt when it is no date.
std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view text);

// How long a 429 answer asks to wait: delta-seconds or an HTTP-date
// (relative to `now`); absent or unreadable means one second.
std::chrono::milliseconds retry_after_delay(std::optional<std::string_view> header,
                                            std::chrono::system_clock::time_point now);

}  // namespace stand::host::http
