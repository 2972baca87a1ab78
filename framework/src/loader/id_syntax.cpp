#include "loader/id_syntax.hpp"

#include <stand/plugin.h>

namespace stand::loader {
namespace {

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

bool is_valid_plugin_id(std::string_view id) {
    if (id.empty() || id.size() > STAND_PLUGIN_ID_MAX || !is_lower_alnum(id.front())) return false;
    for (char c : id)
        if (!is_lower_alnum(c) && c != '.' && c != '_' && c != '-') return false;
    return true;
}

bool is_valid_interface_id(std::string_view id) {
    auto slash = id.rfind('/');
    if (slash == std::string_view::npos || slash + 1 >= id.size()) return false;
    std::string_view revision = id.substr(slash + 1);
    if (revision.front() == '0' || revision.size() > 9) return false;
    for (char c : revision)
        if (c < '0' || c > '9') return false;
    std::string_view name = id.substr(0, slash);
    int words = 0;
    std::size_t start = 0;
    while (start <= name.size()) {
        std::size_t dot = name.find('.', start);
        std::string_view word = name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (word.empty()) return false;
        for (char c : word)
            if (!is_lower_alnum(c) && c != '-') return false;
        ++words;
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return words >= 2;
}

}  // namespace stand::loader
