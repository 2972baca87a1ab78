// Loads a plugin library with Boost.DLL and checks its entry table before any
// plugin code other than the entry function runs.
#pragma once

#include "loader/load_error.hpp"
#include "loader/plugin_info.hpp"

#include <stand/plugin.h>

#include <boost/dll/shared_library.hpp>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace stand::loader {

// A plugin that passed every load-time check, its library loaded in this
// process (for calls into it: the compat suite, the plugin worker).
struct LoadedPlugin : PluginInfo {
    boost::dll::shared_library library;
    // Copies normalised to this host's struct sizes (missing tail members zeroed).
    stand_plugin_entry entry{};
    stand_plugin_descriptor descriptor{};
    std::uint32_t entry_struct_size = 0;
    std::uint32_t descriptor_struct_size = 0;
};

// Loads and validates `file`; throws LoadError naming the file and the reason.
std::shared_ptr<LoadedPlugin> load_plugin(const std::filesystem::path& file);

}  // namespace stand::loader
