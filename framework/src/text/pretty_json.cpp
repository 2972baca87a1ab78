#include "text/pretty_json.hpp"

#include "text/finite_json.hpp"

namespace stand::text {

void write_pretty_json(std::ostream& out, const boost::json::value& v, const std::string& indent) {
    switch (v.kind()) {
    case boost::json::kind::object: {
        const auto& o = v.get_object();
        if (o.empty()) { out << "{}"; return; }
        out << "{\n";
        std::size_t i = 0;
        for (const auto& kv : o) {
            out << indent << "  " << boost::json::serialize(boost::json::value(kv.key())) << ": ";
            write_pretty_json(out, kv.value(), indent + "  ");
            out << (++i < o.size() ? ",\n" : "\n");
        }
        out << indent << "}";
        return;
    }
    case boost::json::kind::array: {
        const auto& a = v.get_array();
        if (a.empty()) { out << "[]"; return; }
        out << "[\n";
        for (std::size_t i = 0; i < a.size(); ++i) {
            out << indent << "  ";
            write_pretty_json(out, a[i], indent + "  ");
            out << (i + 1 < a.size() ? ",\n" : "\n");
        }
        out << indent << "]";
        return;
    }
    default: out << finite_json_text(v);
    }
}

}  // namespace stand::text
