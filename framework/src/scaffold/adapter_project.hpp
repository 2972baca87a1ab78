// `stand new adapter`: a standalone adapter project written from the
// embedded skeletons (sdk/templates/<interface>/ and common/), which builds
// against the installed SDK and its kit and passes `stand compat`.
//
// Placeholders in the skeletons: %%name%% (the plugin id), %%ident%% (the
// id as a C/CMake identifier: '-' and '.' become '_'), %%Class%% (the id in
// CamelCase, the plugin's C++ class) and %%sdk_major%% (the SDK major the
// project asks find_package for). Any other %%word%% is a bug of the skeleton.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace stand::scaffold {

// What the user got wrong: the name, the interface, the folder.
class ScaffoldError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The interfaces there is a skeleton for: "panel", "proxy", "probe".
const std::vector<std::string>& adapter_interfaces();

struct AdapterNames {
    std::string name, ident, class_name;
};
// Throws ScaffoldError unless `name` is a plugin id starting with a letter.
AdapterNames adapter_names(const std::string& name);

// `text` with the placeholders filled; throws std::logic_error naming
// `where` on an unknown one.
std::string fill_placeholders(const std::string& text, const AdapterNames& names, const std::string& where);

// Writes the project of `interface` into `dir` (created; it must be absent
// or empty) and returns the files written, relative to `dir`. Throws
// ScaffoldError for a bad name, interface or folder; std::filesystem_error
// when a file cannot be written.
std::vector<std::filesystem::path> write_adapter_project(const std::string& name, const std::string& interface,
                                                         const std::filesystem::path& dir);

}  // namespace stand::scaffold
