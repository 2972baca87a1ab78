#include "mistgate_setup.hpp"

#include <cstring>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace stand_mistgate {

SetupOutput parse_setup_output(const std::string& text) {
    auto value_after = [](const std::string& line, const char* label) -> std::optional<std::string> {
        auto at = line.find(label);
        if (at == std::string::npos) return std::nullopt;
        std::istringstream rest(line.substr(at + std::strlen(label)));
        std::string v;
        rest >> v;
        if (v.empty()) return std::nullopt;
        return v;
    };
    SetupOutput out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (auto v = value_after(line, "Admin URL:")) out.admin_url = *v;
        if (auto v = value_after(line, "Setup link:")) {
            auto hash = v->find('#');
            out.setup_token = hash == std::string::npos ? std::string() : v->substr(hash + 1);
        }
    }
    return out;
}

unsigned otpauth_period(const std::string& uri) {
    auto q = uri.find('?');
    while (q != std::string::npos) {
        auto start = q + 1;
        auto end = uri.find('&', start);
        auto param = uri.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (param.rfind("period=", 0) == 0) {
            try {
                auto n = std::stoul(param.substr(7));
                return n > 0 && n <= 3600 ? static_cast<unsigned>(n) : 0U;
            } catch (const std::exception&) {
                return 0;
            }
        }
        q = end;
    }
    return 0;
}

}  // namespace stand_mistgate
