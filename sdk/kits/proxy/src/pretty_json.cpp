#include <stand/kits/proxy/pretty_json.hpp>

namespace stand_proxy_kit {
namespace {

void write(std::string& out, const boost::json::value& v, int depth) {
    const std::string indent(static_cast<std::size_t>(depth + 1) * 2, ' ');
    const std::string closing(static_cast<std::size_t>(depth) * 2, ' ');
    if (v.is_object() && !v.get_object().empty()) {
        out += "{\n";
        bool first = true;
        for (const auto& kv : v.get_object()) {
            out += first ? "" : ",\n";
            first = false;
            out += indent + boost::json::serialize(boost::json::string(kv.key())) + ": ";
            write(out, kv.value(), depth + 1);
        }
        out += "\n" + closing + "}";
    } else if (v.is_array() && !v.get_array().empty()) {
        out += "[\n";
        bool first = true;
        for (const auto& item : v.get_array()) {
            out += first ? "" : ",\n";
            first = false;
            out += indent;
            write(out, item, depth + 1);
        }
        out += "\n" + closing + "]";
    } else {
        out += boost::json::serialize(v);
    }
}

}  // namespace

std::string pretty_json(const boost::json::value& v) {
    std::string out;
    write(out, v, 0);
    return out + "\n";
}

}  // namespace stand_proxy_kit
