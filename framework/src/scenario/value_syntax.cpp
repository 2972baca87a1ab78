#include "scenario/value_syntax.hpp"

#include "loader/id_syntax.hpp"
#include "text/number_format.hpp"

#include <stdexcept>
#include <string>

namespace stand::scenario {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_token_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

}  // namespace

bool is_valid_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '-')) return false;
    return true;
}

bool is_double_format(std::string_view format) {
    try {
        text::PrintfFormat checked{std::string(format)};
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

bool is_valid_header(std::string_view header) {
    const std::size_t colon = header.find(':');
    if (colon == 0 || colon == std::string_view::npos) return false;
    for (char c : header.substr(0, colon))
        if (!is_token_char(c)) return false;
    for (char c : header.substr(colon + 1))
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) return false;
    return true;
}

bool is_valid_label(std::string_view label) {
    if (label.empty() || label.size() > 64 || label.front() == '.') return false;
    for (char c : label)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '-' || c == '.'))
            return false;
    return true;
}

std::string default_label(std::string_view id_or_path) {
    if (id_or_path.find('/') == std::string_view::npos && !id_or_path.ends_with(".so")) return std::string(id_or_path);
    std::string_view name = id_or_path.substr(id_or_path.rfind('/') == std::string_view::npos ? 0 : id_or_path.rfind('/') + 1);
    if (name.ends_with(".so")) name.remove_suffix(3);
    return std::string(name);
}

bool is_plugin_reference(std::string_view id_or_path) {
    const bool is_path = id_or_path.find('/') != std::string_view::npos ||
                         (id_or_path.size() > 3 && id_or_path.substr(id_or_path.size() - 3) == ".so");
    return is_path || loader::is_valid_plugin_id(id_or_path);
}

}  // namespace stand::scenario
