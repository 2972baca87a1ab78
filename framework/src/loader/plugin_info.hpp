// What the host knows of a plugin file without holding its library: the
// descriptor that passed the loader's checks (plugin_loader.hpp), as texts.
// The search (plugin_search.hpp) learns it in a forked child and keeps only
// this, so a run does not map every plugin in the path into the host.
#pragma once

#include <boost/json/fwd.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace stand::loader {

struct PluginInfo {
    std::filesystem::path file;
    std::string id, name, version, description, config_schema;
    std::vector<std::string> interfaces;
    std::uint32_t abi_major = 0, abi_minor = 0;  // the entry's ABI version
    std::uint32_t min_host_abi_minor = 0;

    bool implements(std::string_view interface_id) const;
};

// The wire form between the child that loaded the file and the host.
boost::json::object plugin_info_json(const PluginInfo& info);
// Throws std::runtime_error naming the member that is missing or mistyped.
PluginInfo plugin_info_from_json(const boost::json::value& v);

}  // namespace stand::loader
