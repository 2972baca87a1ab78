#include "host/http/http_date.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>
#include <vector>

namespace stand::host::http {
namespace {

bool is_delimiter(unsigned char c) {
    return c == 0x09 || (c >= 0x20 && c <= 0x2F) || (c >= 0x3B && c <= 0x40) ||
           (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
}

std::vector<std::string_view> date_tokens(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && is_delimiter(static_cast<unsigned char>(text[i]))) ++i;
        const std::size_t start = i;
        while (i < text.size() && !is_delimiter(static_cast<unsigned char>(text[i]))) ++i;
        if (i > start) out.push_back(text.substr(start, i - start));
    }
    return out;
}

// Reads 1..max_digits leading digits; the rest of the token must not be a digit.
std::optional<int> leading_number(std::string_view& s, std::size_t min_digits,
                                  std::size_t max_digits) {
    std::size_t n = 0;
    while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n]))) ++n;
    if (n < min_digits || n > max_digits) return std::nullopt;
    int value = 0;
    std::from_chars(s.data(), s.data() + n, value);
    s.remove_prefix(n);
    return value;
}

bool parse_time(std::string_view s, int& h, int& m, int& sec) {
    const auto a = leading_number(s, 1, 2);
    if (!a || s.empty() || s.front() != ':') return false;
    s.remove_prefix(1);
    const auto b = leading_number(s, 1, 2);
    if (!b || s.empty() || s.front() != ':') return false;
    s.remove_prefix(1);
    const auto c = leading_number(s, 1, 2);
    if (!c) return false;
    h = *a;
    m = *b;
    sec = *c;
    return true;
}

std::optional<unsigned> month_of(std::string_view s) {
    static constexpr std::array<std::string_view, 12> names = {
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
    if (s.size() < 3) return std::nullopt;
    for (unsigned i = 0; i < names.size(); ++i) {
        const std::string_view name = names[i];
        if (std::equal(name.begin(), name.end(), s.begin(), [](char a, char b) {
                return a == std::tolower(static_cast<unsigned char>(b));
            }))
            return i + 1;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view text) {
    std::optional<int> hour, minute, second, day, year;
    std::optional<unsigned> month;
    for (std::string_view token : date_tokens(text)) {
        int h = 0, m = 0, s = 0;
        if (!hour && parse_time(token, h, m, s)) {
            hour = h;
            minute = m;
            second = s;
            continue;
        }
        if (!day) {
            std::string_view t = token;
            if ((day = leading_number(t, 1, 2))) continue;
        }
        if (!month && (month = month_of(token))) continue;
        if (!year) {
            std::string_view t = token;
            year = leading_number(t, 2, 4);
        }
    }
    if (!hour || !day || !month || !year) return std::nullopt;
    int y = *year;
    if (y >= 70 && y <= 99) y += 1900;
    if (y >= 0 && y <= 69) y += 2000;
    if (y < 1601 || *hour > 23 || *minute > 59 || *second > 59) return std::nullopt;
    const std::chrono::year_month_day date{std::chrono::year{y}, std::chrono::month{*month},
                                           std::chrono::day{static_cast<unsigned>(*day)}};
    if (!date.ok()) return std::nullopt;
    return std::chrono::sys_days{date} + std::chrono::hours{*hour} +
           std::chrono::minutes{*minute} + std::chrono::seconds{*second};
}

std::chrono::milliseconds retry_after_delay(std::optional<std::string_view> header,
                                            std::chrono::system_clock::time_point now) {
    using std::chrono::milliseconds;
    constexpr milliseconds fallback{1000};
    if (!header) return fallback;
    std::string_view v = *header;
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    if (!v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        })) {
        // Anything beyond a day is capped by max_retry_after_ms anyway.
        long long seconds = 86400;
        if (v.size() < 6) std::from_chars(v.data(), v.data() + v.size(), seconds);
        return milliseconds{std::min<long long>(seconds, 86400) * 1000};
    }
    if (const auto when = parse_http_date(v)) {
        const auto delta = std::chrono::duration_cast<milliseconds>(*when - now);
        return std::max(delta, milliseconds{0});
    }
    return fallback;
}

}  // namespace stand::host::http
