#include "text/xml_escape.hpp"

#include "text/utf8.hpp"

namespace stand::text {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// A character of XML 1.0 (its production Char) that is not one of the
// non-characters it discourages (U+FDD0-U+FDEF, the last two of each plane):
// expat refuses U+FFFE and U+FFFF.
bool xml_character(char32_t c) {
    if (c < 0x20) return c == 0x9 || c == 0xA || c == 0xD;
    if ((c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE) return false;
    return c <= 0xD7FF || (c >= 0xE000 && c <= 0x10FFFF);
}

}  // namespace

std::string xml_escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    std::string_view rest(text);
    while (!rest.empty()) {
        const Utf8Char c = decode_utf8(rest);
        if (c.length == 0) {  // not UTF-8: a Latin-1 byte, a cut sequence
            out += kReplacement;
            rest.remove_prefix(1);
            continue;
        }
        switch (c.code_point) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default: out += xml_character(c.code_point) ? rest.substr(0, c.length) : kReplacement;
        }
        rest.remove_prefix(c.length);
    }
    return out;
}

}  // namespace stand::text
