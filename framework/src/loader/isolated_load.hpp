// Learning what a plugin file is without loading it into this process: a
// forked child loads it and sends back its checked descriptor, so that a
// library whose static constructors or entry function crash or hang is refused
// with a reason, and the host maps no plugin code for a file it only lists or
// hands to a plugin worker.
#pragma once

#include "loader/load_error.hpp"
#include "loader/plugin_info.hpp"

#include <chrono>
#include <memory>

namespace stand::loader {

// Throws LoadError: the loader's own reason, or "crashed or hung while
// loading ...". The caller must be single-threaded (it forks).
std::shared_ptr<const PluginInfo> describe_plugin_isolated(const std::filesystem::path& file,
                                                           std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace stand::loader
