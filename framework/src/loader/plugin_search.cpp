#include "loader/plugin_search.hpp"

#include "loader/id_syntax.hpp"
#include "loader/isolated_load.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace stand::loader {
namespace {

std::filesystem::path executable_dir() {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path();
}

std::vector<std::filesystem::path> plugin_files(const std::vector<std::filesystem::path>& dirs) {
    std::vector<std::filesystem::path> files;
    std::set<std::filesystem::path> seen;
    for (const auto& dir : dirs) {
        std::error_code ec;
        std::vector<std::filesystem::path> here;
        for (const auto& e : std::filesystem::directory_iterator(dir, ec))
            if (e.path().extension() == ".so" && e.is_regular_file(ec)) here.push_back(e.path());
        std::sort(here.begin(), here.end());
        for (auto& f : here) {
            auto canonical = std::filesystem::weakly_canonical(f, ec);
            if (seen.insert(ec ? f : canonical).second) files.push_back(f);
        }
    }
    return files;
}

}  // namespace

std::vector<std::filesystem::path> PluginSearch::default_path(const std::vector<std::filesystem::path>& explicit_dirs) {
    std::vector<std::filesystem::path> dirs = explicit_dirs;
    if (const char* env = std::getenv("STAND_PLUGIN_PATH")) {
        std::stringstream ss(env);
        std::string item;
        while (std::getline(ss, item, ':'))
            if (!item.empty()) dirs.emplace_back(item);
    }
    auto exe_dir = executable_dir();
    if (!exe_dir.empty()) {
        dirs.push_back(exe_dir.parent_path() / "plugins");         // build tree: build/bin/stand -> build/plugins
        dirs.push_back(exe_dir.parent_path() / "lib/stand/plugins");  // installed tree
    }
    return dirs;
}

ScanResult PluginSearch::scan() const {
    std::lock_guard lock(mutex_);
    if (!scanned_) scanned_ = scan_files();
    return *scanned_;
}

ScanResult PluginSearch::scan_files() const {
    ScanResult result;
    std::map<std::string, std::vector<std::shared_ptr<const PluginInfo>>> by_id;
    for (const auto& file : plugin_files(dirs_)) {
        try {
            auto plugin = describe_plugin_isolated(file);
            by_id[plugin->id].push_back(plugin);
        } catch (const LoadError& e) {
            result.refused.push_back({e.file(), e.reason()});
        }
    }
    for (auto& [id, list] : by_id) {
        if (list.size() == 1) {
            result.plugins.push_back(list.front());
            continue;
        }
        std::string files;
        for (const auto& p : list) files += (files.empty() ? "" : ", ") + p->file.string();
        for (const auto& p : list) result.refused.push_back({p->file, "duplicate plugin id '" + id + "' (in " + files + ")"});
    }
    return result;
}

std::shared_ptr<const PluginInfo> PluginSearch::resolve(const std::string& name_or_path) const {
    bool is_path = name_or_path.find('/') != std::string::npos ||
                   (name_or_path.size() > 3 && name_or_path.compare(name_or_path.size() - 3, 3, ".so") == 0);
    if (is_path) {
        std::lock_guard lock(mutex_);
        auto& loaded = by_path_[name_or_path];
        if (!loaded) loaded = describe_plugin_isolated(name_or_path);
        return loaded;
    }

    if (!is_valid_plugin_id(name_or_path))
        throw LoadError(name_or_path, "is neither a file path nor a well-formed plugin id");
    ScanResult scanned = scan();
    for (const auto& plugin : scanned.plugins)
        if (plugin->id == name_or_path) return plugin;
    for (const auto& refusal : scanned.refused)
        if (refusal.reason.find("duplicate plugin id '" + name_or_path + "'") == 0)
            throw LoadError(refusal.file, refusal.reason);
    std::string searched;
    for (const auto& d : dirs_) searched += (searched.empty() ? "" : ":") + d.string();
    throw LoadError(name_or_path, "no plugin with this id in the search path (" + searched +
                                      "); try `stand plugins`, --plugin-path DIR or a file path");
}

}  // namespace stand::loader
