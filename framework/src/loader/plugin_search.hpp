// Finds plugins by path, or by id in the search path.
#pragma once

#include "loader/load_error.hpp"
#include "loader/plugin_info.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace stand::loader {

// One file in the search path that could not be loaded.
struct Refusal {
    std::filesystem::path file;
    std::string reason;
};

struct ScanResult {
    std::vector<std::shared_ptr<const PluginInfo>> plugins;  // sorted by id
    std::vector<Refusal> refused;                         // bad files and duplicate ids
};

class PluginSearch {
public:
    // The directories searched: explicit ones, then $STAND_PLUGIN_PATH, then
    // the plugins directory next to the executable (build/plugins). None
    // comes first: an id found in two files is refused for both (scan()).
    static std::vector<std::filesystem::path> default_path(const std::vector<std::filesystem::path>& explicit_dirs);

    explicit PluginSearch(std::vector<std::filesystem::path> dirs) : dirs_(std::move(dirs)) {}
    const std::vector<std::filesystem::path>& dirs() const noexcept { return dirs_; }

    // Describes every *.so in the path (each loaded in a forked child only),
    // once per PluginSearch: later calls return the same result. A duplicate
    // id is refused for both files.
    ScanResult scan() const;

    // `name_or_path` containing '/' or ending in ".so" is a file; otherwise a
    // plugin id looked up in the path. Throws LoadError (file, or the id and
    // the directories searched) when it cannot be found, loaded or is ambiguous.
    // To call into it, load_plugin(info->file) (plugin_loader.hpp).
    std::shared_ptr<const PluginInfo> resolve(const std::string& name_or_path) const;

private:
    ScanResult scan_files() const;

    std::vector<std::filesystem::path> dirs_;
    mutable std::mutex mutex_;
    mutable std::optional<ScanResult> scanned_;  // the first scan()
    mutable std::map<std::filesystem::path, std::shared_ptr<const PluginInfo>> by_path_;  // resolve() of a file
};

}  // namespace stand::loader
