#include "haproxy_check_output.hpp"

#include <regex>
#include <sstream>
#include <vector>

namespace stand_haproxy {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string version_from_banner(const std::string& text) {
    std::smatch m;
    if (std::regex_search(text, m, std::regex(R"(HAProxy version (\S+))"))) return m[1];
    return {};
}

std::string check_alerts(const std::string& text) {
    static const std::regex alert(R"(^\[ALERT\]\s*\(\d+\) : (?:config : )?(.*)$)");
    std::vector<std::string> located, others;
    std::istringstream in(text);
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
        if (!std::regex_match(line, m, alert)) continue;
        std::string message = m[1];
        (message.starts_with("parsing [") ? located : others).push_back(message);
    }
    located.insert(located.end(), others.begin(), others.end());
    std::string joined;
    for (const auto& a : located) joined += (joined.empty() ? "" : "; ") + a;
    return joined;
}

}  // namespace stand_haproxy
