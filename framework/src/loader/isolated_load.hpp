// Loading a plugin file safely: first in a forked child, so that a library
// whose static constructors or entry function crash or hang is refused with
// a reason instead of taking the host down; then for real in this process.
#pragma once

#include "loader/plugin_loader.hpp"

#include <chrono>

namespace stand::loader {

// Throws LoadError: the loader's own reason, or "crashed while loading ..." /
// "hung while loading ...". The caller must be single-threaded (it forks).
std::shared_ptr<LoadedPlugin> load_plugin_isolated(const std::filesystem::path& file,
                                                   std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace stand::loader
