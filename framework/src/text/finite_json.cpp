#include "text/finite_json.hpp"

#include <boost/json/serialize.hpp>

#include <cmath>

namespace stand::text {
namespace {

namespace json = boost::json;

void null_in(json::value& v, const std::string& path, std::vector<std::string>& out) {
    if (v.is_double() && !std::isfinite(v.get_double())) {
        v = nullptr;
        out.push_back(path);
    } else if (v.is_array()) {
        auto& a = v.get_array();
        for (std::size_t i = 0; i < a.size(); ++i) null_in(a[i], path + "[" + std::to_string(i) + "]", out);
    } else if (v.is_object()) {
        for (auto& [key, member] : v.get_object())
            null_in(member, path.empty() ? std::string(key) : path + "." + std::string(key), out);
    }
}

}  // namespace

json::value finite_or_null(double v, bool& non_finite) {
    if (std::isfinite(v)) return v;
    non_finite = true;
    return nullptr;
}

json::value finite_or_null(const std::optional<double>& v, bool& non_finite) {
    return v ? finite_or_null(*v, non_finite) : json::value(nullptr);
}

json::value finite_or_null(const std::optional<double>& v) {
    bool ignored = false;
    return finite_or_null(v, ignored);
}

std::vector<std::string> null_non_finite(json::value& doc) {
    std::vector<std::string> out;
    null_in(doc, "", out);
    return out;
}

std::string finite_json_text(json::value doc) {
    null_non_finite(doc);
    return json::serialize(doc);
}

}  // namespace stand::text
