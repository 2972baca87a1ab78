#include "text/json_path.hpp"

namespace stand::text {

const boost::json::value* json_at(const boost::json::object& o, std::initializer_list<std::string_view> path) {
    const boost::json::object* cur = &o;
    const boost::json::value* v = nullptr;
    for (const auto key : path) {
        if (cur == nullptr || (v = cur->if_contains(key)) == nullptr) return nullptr;
        cur = v->if_object();
    }
    return v;
}

double json_number(const boost::json::value* v) { return v != nullptr && v->is_number() ? v->to_number<double>() : 0; }

}  // namespace stand::text
