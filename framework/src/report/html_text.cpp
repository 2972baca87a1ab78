#include "report/html_text.hpp"

#include "text/xml_escape.hpp"

#include <charconv>
#include <cmath>

namespace stand::report {

std::string html_escape(std::string_view text) { return text::xml_escape(std::string(text)); }

std::string fixed(double value, int decimals) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buf[128];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, decimals);
    if (ec != std::errc()) return "nan";
    std::string out(buf, end);
    if (out.front() == '-' && out.find_first_not_of("-0.") == std::string::npos) out.erase(0, 1);
    return out;
}

}  // namespace stand::report
