// Loads a plugin library with Boost.DLL and checks its entry table before any
// plugin code other than the entry function runs.
#pragma once

#include <stand/plugin.h>

#include <boost/dll/shared_library.hpp>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace stand::loader {

// A refusal: what() is "<file>: <reason>".
class LoadError : public std::runtime_error {
public:
    LoadError(const std::filesystem::path& file, const std::string& reason)
        : std::runtime_error(file.string() + ": " + reason), file_(file), reason_(reason) {}
    const std::filesystem::path& file() const noexcept { return file_; }
    const std::string& reason() const noexcept { return reason_; }

private:
    std::filesystem::path file_;
    std::string reason_;
};

// A plugin that passed every load-time check. Keeps the library loaded.
struct LoadedPlugin {
    std::filesystem::path file;
    boost::dll::shared_library library;
    // Copies normalised to this host's struct sizes (missing tail members zeroed).
    stand_plugin_entry entry{};
    stand_plugin_descriptor descriptor{};
    std::uint32_t entry_struct_size = 0;
    std::uint32_t descriptor_struct_size = 0;

    std::string id, name, version, description, config_schema;
    std::vector<std::string> interfaces;

    bool implements(std::string_view interface_id) const;
};

// Loads and validates `file`; throws LoadError naming the file and the reason.
std::shared_ptr<LoadedPlugin> load_plugin(const std::filesystem::path& file);

}  // namespace stand::loader
