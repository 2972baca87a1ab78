#include "text/number_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

namespace stand::text {

std::string format_exact(double v) {
    char buf[64];
    // A whole number in digits ("1000000", not the shorter "1e+06").
    const bool whole = std::isfinite(v) && std::trunc(v) == v && std::fabs(v) < 1e15;
    const auto [end, ec] = whole ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                                 : std::to_chars(buf, buf + sizeof buf, v);
    if (ec != std::errc()) throw std::runtime_error("format_exact: to_chars failed");
    return std::string(buf, end);
}

std::string format_shortest(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    // Shortest round-trip digits in scientific form, e.g. "5.368055555555556e+01".
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    if (ec != std::errc()) throw std::runtime_error("format_shortest: to_chars failed");
    std::string sci(buf, end);
    const auto e_pos = sci.find('e');
    std::string mantissa = sci.substr(0, e_pos);
    const int exponent = std::atoi(sci.c_str() + e_pos + 1);
    std::string sign;
    if (mantissa[0] == '-') {
        sign = "-";
        mantissa.erase(0, 1);
    }
    std::string digits;
    for (char c : mantissa)
        if (c != '.') digits += c;

    // Python's repr: positional for -4 <= exponent < 16, scientific otherwise.
    if (exponent >= -4 && exponent < 16) {
        std::string out;
        if (exponent < 0) {
            out = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
        } else {
            const auto int_digits = static_cast<std::size_t>(exponent) + 1;
            if (digits.size() <= int_digits) out = digits + std::string(int_digits - digits.size(), '0') + ".0";
            else out = digits.substr(0, int_digits) + "." + digits.substr(int_digits);
        }
        return sign + out;
    }
    std::string out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exp_text[16];
    std::snprintf(exp_text, sizeof exp_text, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return sign + out + exp_text;
}

PrintfFormat::PrintfFormat(std::string format) : format_(std::move(format)) {
    int conversions = 0;
    for (std::size_t i = 0; i < format_.size(); ++i) {
        if (format_[i] != '%') continue;
        ++i;
        if (i < format_.size() && format_[i] == '%') continue;
        while (i < format_.size() && std::string_view("-+ 0#").find(format_[i]) != std::string_view::npos) ++i;
        auto digits = [&](const char* what) {
            std::size_t n = 0;
            while (i < format_.size() && format_[i] >= '0' && format_[i] <= '9') ++i, ++n;
            if (n > 2) throw std::invalid_argument(std::string(what) + " of more than 2 digits in '" + format_ + "'");
        };
        digits("a width");
        if (i < format_.size() && format_[i] == '.') {
            ++i;
            digits("a precision");
        }
        if (i >= format_.size() || std::string_view("fFeEgG").find(format_[i]) == std::string_view::npos)
            throw std::invalid_argument("'" + format_ +
                                        "' is not a printf format for a number: use one %f, %e or %g conversion "
                                        "with optional flags, width and precision, e.g. \"%.1f\"");
        ++conversions;
    }
    if (conversions != 1)
        throw std::invalid_argument("'" + format_ + "' must hold exactly one conversion (%f, %e or %g), not " +
                                    std::to_string(conversions));
}

std::string PrintfFormat::apply(double value) const {
    char buf[512];
    const int n = std::snprintf(buf, sizeof buf, format_.c_str(), value);
    if (n < 0) throw std::runtime_error("printf format '" + format_ + "' failed");
    if (static_cast<std::size_t>(n) < sizeof buf) return std::string(buf, static_cast<std::size_t>(n));
    std::string out(static_cast<std::size_t>(n) + 1, '\0');
    std::snprintf(out.data(), out.size(), format_.c_str(), value);
    out.resize(static_cast<std::size_t>(n));
    return out;
}

std::string format_4g(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

}  // namespace stand::text
