#include "caddy_output.hpp"

#include <stand/kits/proxy/tool_run.hpp>

#include <regex>

namespace stand_caddy {

std::string version_from_output(const std::string& text) {
    std::smatch m;
    if (std::regex_search(text, m, std::regex("v?([0-9]+\\.[0-9]+\\.[0-9]+)"))) return m[1];
    return {};
}

std::string command_error(const std::string& text) {
    const auto at = text.rfind("Error: ");
    return stand_proxy_kit::output_tail(at == std::string::npos ? text : text.substr(at + 7));
}

}  // namespace stand_caddy
