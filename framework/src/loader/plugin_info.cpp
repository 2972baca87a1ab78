#include "loader/plugin_info.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace stand::loader {
namespace {

namespace json = boost::json;

const json::value& member(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    if (v == nullptr) throw std::runtime_error(std::string("plugin info: no \"") + key + "\"");
    return *v;
}

std::string text(const json::object& o, const char* key) {
    const auto& v = member(o, key);
    if (!v.is_string()) throw std::runtime_error(std::string("plugin info: \"") + key + "\" is not a string");
    return std::string(v.as_string());
}

std::uint32_t number(const json::object& o, const char* key) {
    const auto& v = member(o, key);
    if (!v.is_uint64() && !(v.is_int64() && v.as_int64() >= 0))
        throw std::runtime_error(std::string("plugin info: \"") + key + "\" is not a non-negative integer");
    return static_cast<std::uint32_t>(v.to_number<std::uint64_t>());
}

}  // namespace

bool PluginInfo::implements(std::string_view interface_id) const {
    return std::find(interfaces.begin(), interfaces.end(), interface_id) != interfaces.end();
}

json::object plugin_info_json(const PluginInfo& info) {
    json::array interfaces;
    for (const auto& i : info.interfaces) interfaces.emplace_back(i);
    return {{"file", info.file.string()},
            {"id", info.id},
            {"name", info.name},
            {"version", info.version},
            {"description", info.description},
            {"config_schema", info.config_schema},
            {"interfaces", std::move(interfaces)},
            {"abi_major", info.abi_major},
            {"abi_minor", info.abi_minor},
            {"min_host_abi_minor", info.min_host_abi_minor}};
}

PluginInfo plugin_info_from_json(const json::value& v) {
    if (!v.is_object()) throw std::runtime_error("plugin info: not a JSON object");
    const auto& o = v.as_object();
    PluginInfo info;
    info.file = text(o, "file");
    info.id = text(o, "id");
    info.name = text(o, "name");
    info.version = text(o, "version");
    info.description = text(o, "description");
    info.config_schema = text(o, "config_schema");
    const auto& interfaces = member(o, "interfaces");
    if (!interfaces.is_array()) throw std::runtime_error("plugin info: \"interfaces\" is not an array");
    for (const auto& i : interfaces.as_array()) {
        if (!i.is_string()) throw std::runtime_error("plugin info: an interface is not a string");
        info.interfaces.emplace_back(i.as_string());
    }
    info.abi_major = number(o, "abi_major");
    info.abi_minor = number(o, "abi_minor");
    info.min_host_abi_minor = number(o, "min_host_abi_minor");
    return info;
}

}  // namespace stand::loader
