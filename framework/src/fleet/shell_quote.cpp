#include "fleet/shell_quote.hpp"

#include "fleet/fleet_error.hpp"

namespace stand::fleet {

std::string shell_quote(std::string_view word) {
    if (word.find('\0') != std::string_view::npos) throw FleetError("an argument for a remote shell holds a NUL");
    std::string out = "'";
    for (char c : word) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

std::string shell_line(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& word : argv) out += (out.empty() ? "" : " ") + shell_quote(word);
    return out;
}

}  // namespace stand::fleet
