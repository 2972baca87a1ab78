#include "box/cgroup_text.hpp"

#include "text/trim.hpp"

#include <charconv>

namespace stand::box {

std::optional<std::uint64_t> parse_u64(std::string_view s) noexcept {
    s = text::trim(s);
    if (s.empty()) return std::nullopt;
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<std::uint64_t> find_u64(std::string_view text, std::string_view key) noexcept {
    while (!text.empty()) {
        auto eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
        if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ' ')
            return parse_u64(line.substr(key.size() + 1));
    }
    return std::nullopt;
}

std::size_t count_lines(std::string_view text) noexcept {
    std::size_t n = 0;
    while (!text.empty()) {
        auto eol = text.find('\n');
        if (!text::trim(text.substr(0, eol)).empty()) ++n;
        if (eol == std::string_view::npos) break;
        text.remove_prefix(eol + 1);
    }
    return n;
}

}  // namespace stand::box
