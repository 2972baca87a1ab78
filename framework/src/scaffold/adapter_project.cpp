#include "scaffold/adapter_project.hpp"

#include "loader/id_syntax.hpp"
#include "scaffold/template_files.hpp"

#include <stand/version.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <string_view>

namespace stand::scaffold {

namespace fs = std::filesystem;

const std::vector<std::string>& adapter_interfaces() {
    static const std::vector<std::string> interfaces{"panel", "proxy", "probe"};
    return interfaces;
}

AdapterNames adapter_names(const std::string& name) {
    if (!loader::is_valid_plugin_id(name) || !std::islower(static_cast<unsigned char>(name[0])))
        throw ScaffoldError("'" + name + "' is not a usable adapter name: 1-64 characters of a-z 0-9 . _ -, starting "
                            "with a letter (it is the plugin id, its .so, its CMake project and its C++ class)");
    AdapterNames n{name, name, ""};
    std::replace_if(n.ident.begin(), n.ident.end(), [](char c) { return c == '-' || c == '.'; }, '_');
    bool upper = true;
    for (char c : name) {
        if (c == '-' || c == '.' || c == '_') {
            upper = true;
            continue;
        }
        n.class_name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return n;
}

std::string fill_placeholders(const std::string& text, const AdapterNames& names, const std::string& where) {
    const std::map<std::string, std::string> values{{"name", names.name},
                                                    {"ident", names.ident},
                                                    {"Class", names.class_name},
                                                    {"sdk_major", std::to_string(STAND_ABI_MAJOR)}};
    std::string out;
    std::size_t at = 0;
    for (std::size_t open; (open = text.find("%%", at)) != std::string::npos;) {
        const std::size_t close = text.find("%%", open + 2);
        const auto key = close == std::string::npos ? std::string() : text.substr(open + 2, close - open - 2);
        const auto it = values.find(key);
        if (it == values.end())
            throw std::logic_error(where + ": unknown placeholder %%" + key.substr(0, 40) + "%% (known: name, ident, "
                                   "Class, sdk_major)");
        out += text.substr(at, open - at) + it->second;
        at = close + 2;
    }
    return out + text.substr(at);
}

namespace {

// Names that build no project: CMake's own targets and rules (the plugin's
// .so is named after the adapter, and a Makefile rule of that name would be
// CMake's), and the skeleton's own target.
const std::vector<std::string_view> kReservedNames{
    "all",     "clean",           "help",        "install",      "test",  "package", "package_source", "edit_cache",
    "rebuild_cache", "list_install_components", "depend", "preinstall", "compat"};

// Whether `text` names `word` unqualified: `stand::cpp::Probe` names the
// kit's class whatever the adapter's own is called, a bare `Probe` does not.
bool is_unqualified_word_of(const std::string& word, std::string_view text) {
    const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
        const bool qualified = at >= 2 && text.substr(at - 2, 2) == "::";
        const bool starts = at == 0 || (!ident(text[at - 1]) && !qualified);
        const bool ends = at + word.size() == text.size() || !ident(text[at + word.size()]);
        if (starts && ends) return true;
    }
    return false;
}

// A name whose project cannot build: refused before anything is written.
void check_usable(const AdapterNames& names, const std::string& interface) {
    if (std::find(kReservedNames.begin(), kReservedNames.end(), names.name) != kReservedNames.end())
        throw ScaffoldError("'" + names.name + "' is not a usable adapter name: CMake or the skeleton uses it as a "
                            "target name, so the project would not build; choose another");
    const auto& kit = kit_class_names();
    if (std::binary_search(kit.begin(), kit.end(), std::string_view(names.class_name)))
        throw ScaffoldError("'" + names.name + "' is not a usable adapter name: its class " + names.class_name +
                            " would hide the SDK kit's class of that name, so the project would not build; choose "
                            "another");
    for (const auto& t : template_files()) {
        const std::string_view folder = t.path.substr(0, t.path.find('/'));
        if ((folder == interface || folder == "common") && is_unqualified_word_of(names.class_name, t.text))
            throw ScaffoldError("'" + names.name + "' is not a usable adapter name: its class " + names.class_name +
                                " would hide the kit's class of that name (" + std::string(t.path) +
                                "), so the project would not build; choose another");
    }
}

void check_target_dir(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir, ec)) return;
    if (!fs::is_directory(dir, ec)) throw ScaffoldError(dir.string() + " exists and is not a folder");
    if (!fs::is_empty(dir, ec))
        throw ScaffoldError(dir.string() + " exists and is not empty: give a new folder with --dir (nothing was written)");
}

}  // namespace

std::vector<fs::path> write_adapter_project(const std::string& name, const std::string& interface, const fs::path& dir) {
    const auto& known = adapter_interfaces();
    if (std::find(known.begin(), known.end(), interface) == known.end())
        throw ScaffoldError("unknown interface '" + interface + "' (panel, proxy or probe)");
    const auto names = adapter_names(name);
    check_usable(names, interface);
    check_target_dir(dir);
    // Every file is filled before the first is written: a skeleton bug leaves no half project.
    std::vector<std::pair<fs::path, std::string>> files;
    for (const auto& t : template_files()) {
        const fs::path path(t.path);
        const auto folder = path.begin()->string();
        if (folder != interface && folder != "common") continue;
        files.emplace_back(path.lexically_relative(folder),
                           fill_placeholders(std::string(t.text), names, "sdk/templates/" + std::string(t.path)));
    }
    std::error_code ec;
    const bool dir_was_there = fs::exists(dir, ec);
    std::vector<fs::path> written;
    try {
        for (const auto& [relative, text] : files) {
            const fs::path target = dir / relative;
            fs::create_directories(target.parent_path());
            std::ofstream out(target, std::ios::binary);
            out << text;
            if (!out.flush())
                throw ScaffoldError("cannot write " + target.string() + " (a full or read-only disk?); nothing was left");
            written.push_back(relative);
        }
    } catch (...) {  // no half project: what was written goes (the folder too when this made it)
        if (!dir_was_there) fs::remove_all(dir, ec);
        else
            for (const auto& [relative, text] : files) fs::remove(dir / relative, ec);
        throw;
    }
    return written;
}

}  // namespace stand::scaffold
