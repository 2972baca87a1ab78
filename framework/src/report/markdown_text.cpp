#include "report/markdown_text.hpp"

#include <boost/json.hpp>

namespace stand::report {

std::string cell_text(std::string text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : (c == '\n' || c == '\r') ? std::string(" ") : std::string(1, c);
    return out;
}

std::string fact_text(const boost::json::value& v) {
    if (v.is_string()) return std::string(v.get_string());
    if (v.is_array()) {
        std::string out;
        for (const auto& x : v.get_array()) out += (out.empty() ? "" : "; ") + fact_text(x);
        return out;
    }
    return boost::json::serialize(v);
}

}  // namespace stand::report
