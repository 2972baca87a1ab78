#include "loader/plugin_loader.hpp"

#include "loader/id_syntax.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>

namespace stand::loader {
namespace {

// The smallest tables a v1 plugin can legally hand over.
constexpr std::uint32_t kEntryV1Size =
    static_cast<std::uint32_t>(offsetof(stand_plugin_entry, get_interface) + sizeof(void*));
constexpr std::uint32_t kDescriptorV1Size =
    static_cast<std::uint32_t>(offsetof(stand_plugin_descriptor, min_host_abi_minor) + sizeof(std::uint32_t));

// OBS-style normalisation: copy what the plugin has, zero what it lacks.
template <class T>
T copy_prefix(const T* source, std::uint32_t size) {
    T copy{};
    std::memcpy(&copy, source, std::min<std::size_t>(size, sizeof(T)));
    return copy;
}

std::string text_or_empty(const char* s) { return s ? std::string(s) : std::string(); }

bool has_elf_magic(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    char magic[4] = {0, 0, 0, 0};
    in.read(magic, sizeof(magic));
    return in.gcount() == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
}

// Boost.DLL wraps dlerror() in a long message; keep only dlerror's own text
// without the file name it repeats.
std::string dlerror_text(const std::string& what, const std::filesystem::path& file) {
    const std::string marker = "dlerror system message: ";
    auto start = what.find(marker);
    if (start == std::string::npos) return what;
    start += marker.size();
    auto end = what.rfind("): ");
    std::string text = what.substr(start, end == std::string::npos || end < start ? std::string::npos : end - start);
    const std::string prefix = file.string() + ": ";
    if (text.compare(0, prefix.size(), prefix) == 0) text = text.substr(prefix.size());
    return text;
}

// dlopen()s the file (an existing ELF shared library) into plugin.library.
void open_library(LoadedPlugin& plugin, const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw LoadError(file, "no such file");
    if (!std::filesystem::is_regular_file(file, ec)) throw LoadError(file, "not a regular file");
    plugin.file = std::filesystem::absolute(file, ec);
    if (ec) plugin.file = file;
    if (!has_elf_magic(file)) throw LoadError(file, "not an ELF shared library (no \\x7fELF header)");
    try {
        plugin.library.load(boost::dll::fs::path(plugin.file.string()),
                            boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
    } catch (const std::exception& e) {
        throw LoadError(file, "cannot load as a shared library: " + dlerror_text(e.what(), plugin.file));
    }
}

// The entry table the library exports, checked and copied into plugin.entry.
void take_entry(LoadedPlugin& plugin, const std::filesystem::path& file) {
    if (!plugin.library.has(STAND_PLUGIN_ENTRY_SYMBOL)) {
        std::string reason = "does not export " STAND_PLUGIN_ENTRY_SYMBOL " (not a stand plugin";
        reason += plugin.library.has("stand_plugin_entry_v2") ? ", or built for ABI major 2 only)" : ")";
        throw LoadError(file, reason);
    }
    auto entry_fn = plugin.library.get<const stand_plugin_entry*()>(STAND_PLUGIN_ENTRY_SYMBOL);
    const stand_plugin_entry* raw = entry_fn();
    if (raw == nullptr) throw LoadError(file, STAND_PLUGIN_ENTRY_SYMBOL "() returned NULL");

    if (raw->struct_size < sizeof(std::uint32_t) + sizeof(stand_abi_version))
        throw LoadError(file, "entry struct_size " + std::to_string(raw->struct_size) + " is too small to hold a version");
    if (raw->abi.major != STAND_ABI_MAJOR)
        throw LoadError(file, "built for ABI major " + std::to_string(raw->abi.major) + "; this host implements " +
                                  std::to_string(STAND_ABI_MAJOR) + "." + std::to_string(STAND_ABI_MINOR));
    if (raw->struct_size < kEntryV1Size)
        throw LoadError(file, "entry struct_size " + std::to_string(raw->struct_size) + " is smaller than ABI 1.0's " +
                                  std::to_string(kEntryV1Size));
    plugin.entry_struct_size = raw->struct_size;
    plugin.entry = copy_prefix(raw, raw->struct_size);
    const stand_plugin_entry& entry = plugin.entry;
    if (entry.create == nullptr) throw LoadError(file, "entry member create is NULL");
    if (entry.destroy == nullptr) throw LoadError(file, "entry member destroy is NULL");
    if (entry.get_interface == nullptr) throw LoadError(file, "entry member get_interface is NULL");
    if (entry.descriptor == nullptr) throw LoadError(file, "entry member descriptor is NULL");
}

// The entry's descriptor, checked and copied into plugin.descriptor and its texts.
void take_descriptor(LoadedPlugin& plugin, const std::filesystem::path& file) {
    const stand_plugin_descriptor* d = plugin.entry.descriptor;
    if (d->struct_size < kDescriptorV1Size)
        throw LoadError(file, "descriptor struct_size " + std::to_string(d->struct_size) + " is smaller than ABI 1.0's " +
                                  std::to_string(kDescriptorV1Size));
    plugin.descriptor_struct_size = d->struct_size;
    plugin.descriptor = copy_prefix(d, d->struct_size);
    const stand_plugin_descriptor& desc = plugin.descriptor;
    if (desc.id == nullptr) throw LoadError(file, "descriptor id is NULL");
    if (!is_valid_plugin_id(desc.id))
        throw LoadError(file, std::string("malformed plugin id '") + desc.id +
                                  "': expected 1-64 characters of [a-z0-9._-] starting with a letter or digit");
    if (desc.name == nullptr || desc.name[0] == '\0') throw LoadError(file, "descriptor name is NULL or empty");
    if (desc.version == nullptr || desc.version[0] == '\0') throw LoadError(file, "descriptor version is NULL or empty");
    if (desc.interfaces == nullptr) throw LoadError(file, "descriptor interfaces list is NULL (use a list holding only NULL)");
    if (desc.min_host_abi_minor > STAND_ABI_MINOR)
        throw LoadError(file, "needs host ABI minor >= " + std::to_string(desc.min_host_abi_minor) +
                                  "; this host implements " + std::to_string(STAND_ABI_MAJOR) + "." +
                                  std::to_string(STAND_ABI_MINOR));

    plugin.abi_major = plugin.entry.abi.major;
    plugin.abi_minor = plugin.entry.abi.minor;
    plugin.min_host_abi_minor = desc.min_host_abi_minor;
    plugin.id = desc.id;
    plugin.name = desc.name;
    plugin.version = desc.version;
    plugin.description = text_or_empty(desc.description);
    plugin.config_schema = text_or_empty(desc.config_schema_json);
}

// The descriptor's NULL-terminated interface list, each id well-formed and declared once.
void take_interfaces(LoadedPlugin& plugin, const std::filesystem::path& file) {
    const stand_plugin_descriptor& desc = plugin.descriptor;
    std::set<std::string> seen;
    for (std::size_t i = 0; desc.interfaces[i] != nullptr; ++i) {
        if (i >= 256) throw LoadError(file, "interfaces list has no NULL terminator within 256 entries");
        std::string iface = desc.interfaces[i];
        if (!is_valid_interface_id(iface))
            throw LoadError(file, "malformed interface id '" + iface + "': expected words.separated.by.dots/<revision>");
        if (!seen.insert(iface).second) throw LoadError(file, "interface '" + iface + "' is declared twice");
        plugin.interfaces.push_back(iface);
    }
}

}  // namespace

std::shared_ptr<LoadedPlugin> load_plugin(const std::filesystem::path& file) {
    auto plugin = std::make_shared<LoadedPlugin>();
    open_library(*plugin, file);
    take_entry(*plugin, file);
    take_descriptor(*plugin, file);
    take_interfaces(*plugin, file);
    if (!plugin->config_schema.empty()) {
        boost::system::error_code jec;
        auto schema = boost::json::parse(plugin->config_schema, jec);
        if (jec || !schema.is_object())
            throw LoadError(file, "config schema is not a JSON object" + (jec ? ": " + jec.message() : std::string()) +
                                      " (it begins: " + plugin->config_schema.substr(0, 200) + ")");
    }
    return plugin;
}

}  // namespace stand::loader
