// The Go version and module info a Go binary carries: the ELF section
// .go.buildinfo (or, without section headers, the first writable data
// segment) holds a 32-byte header starting "\xff Go buildinf:", then
//   Go >= 1.18: the version and the module info inline, each a uvarint
//               length and its bytes;
//   older:      two pointers (virtual addresses, of the header's pointer
//               size and byte order) to Go strings {data pointer, length}.
// Read by hand: no C++ library reads it, and `go version -m` would need a
// Go toolchain on the measured machine; the format is small and stable
// (debug/buildinfo in the Go source is the reference).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace stand::detect {

struct GoBuildInfo {
    std::string go_version;  // "go1.26.8", "go1.17.13", "devel go1.27-abcdef"
    std::string modinfo;     // "path\t...\nmod\t...\ndep\t...\nbuild\tDefaultGODEBUG=...\n"; "" without modules
};

// nullopt: not ELF, or no Go build info in it.
std::optional<GoBuildInfo> parse_go_build_info(std::string_view elf_image);
// The same from a file (read in pieces: a Go binary is tens of MB). nullopt
// also when it cannot be read.
std::optional<GoBuildInfo> read_go_build_info(const std::filesystem::path& file);

// (major, minor) of "go1.26.8", "go1.25rc1", "devel go1.27-abc"; nullopt otherwise.
struct GoRelease {
    int major = 0;
    int minor = 0;
};
std::optional<GoRelease> go_release(std::string_view version);

// The value of `build\tDefaultGODEBUG=` in the module info ("" when absent):
// the GODEBUG defaults of the main module's go line and //go:debug lines.
std::string default_godebug(std::string_view modinfo);
// Whether the module info lists `module` as a dependency ("dep\t<module>\t").
bool has_dependency(std::string_view modinfo, std::string_view module);

}  // namespace stand::detect
