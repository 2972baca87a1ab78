#include "detect/go_buildinfo.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <functional>
#include <vector>

namespace stand::detect {
namespace {

constexpr std::string_view kMagic = "\xff Go buildinf:";
constexpr std::size_t kHeaderSize = 32;
constexpr std::size_t kAlign = 16;
constexpr std::uint64_t kSearchLimit = 32u << 20;  // how far into the data segment the blob may start
constexpr std::uint64_t kMaxString = 16u << 20;    // a longer version or module info is garbage

// Reads up to n bytes at a file offset (fewer at the end of the file).
using ReadAt = std::function<std::string(std::uint64_t offset, std::size_t n)>;

struct Segment {
    std::uint64_t vaddr, offset, filesz;
};

class Elf {
public:
    explicit Elf(ReadAt read) : read_(std::move(read)) {}

    bool open() {
        const std::string ident = read_(0, 64);
        if (ident.size() < 52 || ident.compare(0, 4, "\x7f" "ELF") != 0) return false;
        wide_ = ident[4] == 2;
        big_ = ident[5] == 2;
        if ((ident[4] != 1 && ident[4] != 2) || (ident[5] != 1 && ident[5] != 2)) return false;
        if (wide_ && ident.size() < 64) return false;
        const std::string_view h(ident);
        const std::uint64_t phoff = wide_ ? num(h, 0x20, 8) : num(h, 0x1C, 4);
        const std::uint64_t shoff = wide_ ? num(h, 0x28, 8) : num(h, 0x20, 4);
        const std::size_t phentsize = num(h, wide_ ? 0x36 : 0x2A, 2), phnum = num(h, wide_ ? 0x38 : 0x2C, 2);
        const std::size_t shentsize = num(h, wide_ ? 0x3A : 0x2E, 2), shnum = num(h, wide_ ? 0x3C : 0x30, 2);
        const std::size_t shstrndx = num(h, wide_ ? 0x3E : 0x32, 2);

        for (std::size_t i = 0; i < phnum && phentsize >= (wide_ ? 56u : 32u); ++i) {
            const std::string p = read_(phoff + i * phentsize, phentsize);
            if (p.size() < phentsize) return false;
            if (num(p, 0, 4) != 1) continue;  // PT_LOAD
            const std::uint64_t flags = wide_ ? num(p, 4, 4) : num(p, 24, 4);
            Segment s{wide_ ? num(p, 16, 8) : num(p, 8, 4), wide_ ? num(p, 8, 8) : num(p, 4, 4),
                      wide_ ? num(p, 32, 8) : num(p, 16, 4)};
            const std::uint64_t memsz = wide_ ? num(p, 40, 8) : num(p, 20, 4);
            loads_.push_back(s);
            if (!data_ && (flags & 3u) == 2u) data_ = std::pair{s.vaddr, memsz};  // PF_W without PF_X
        }

        if (shoff != 0 && shnum != 0 && shstrndx < shnum && shentsize >= (wide_ ? 64u : 40u)) {
            const std::string names_header = read_(shoff + shstrndx * shentsize, shentsize);
            if (names_header.size() < shentsize) return true;
            const std::string names = read_(wide_ ? num(names_header, 24, 8) : num(names_header, 16, 4),
                                            wide_ ? num(names_header, 32, 8) : num(names_header, 20, 4));
            for (std::size_t i = 0; i < shnum; ++i) {
                const std::string s = read_(shoff + i * shentsize, shentsize);
                if (s.size() < shentsize) break;
                const std::size_t name = num(s, 0, 4);
                if (name >= names.size() || std::string_view(names.c_str() + name) != ".go.buildinfo") continue;
                section_ = std::pair{wide_ ? num(s, 16, 8) : num(s, 12, 4), wide_ ? num(s, 32, 8) : num(s, 20, 4)};
            }
        }
        return true;
    }

    // Where the blob is searched: its own section, else the first data segment.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> data_start() const { return section_ ? section_ : data_; }

    // Up to n bytes at a virtual address, from the PT_LOAD segment holding it.
    std::string at(std::uint64_t vaddr, std::uint64_t n) const {
        for (const auto& s : loads_)
            if (vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz)
                return read_(s.offset + (vaddr - s.vaddr),
                             static_cast<std::size_t>(std::min(n, s.filesz - (vaddr - s.vaddr))));
        return {};
    }

    std::uint64_t num(std::string_view b, std::size_t at, std::size_t width) const { return number(b, at, width, big_); }

    static std::uint64_t number(std::string_view b, std::size_t at, std::size_t width, bool big) {
        if (at + width > b.size()) return 0;
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < width; ++i) {
            const auto byte = static_cast<std::uint8_t>(b[at + (big ? i : width - 1 - i)]);
            v = (v << 8) | byte;
        }
        return v;
    }

private:
    ReadAt read_;
    bool wide_ = false, big_ = false;
    std::vector<Segment> loads_;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> section_, data_;
};

// A uvarint-prefixed string at vaddr; the address after it.
std::optional<std::pair<std::string, std::uint64_t>> inline_string(const Elf& elf, std::uint64_t vaddr) {
    const std::string b = elf.at(vaddr, 10);
    std::uint64_t length = 0;
    std::size_t used = 0;
    for (int shift = 0; used < b.size() && shift < 64; shift += 7) {
        const auto byte = static_cast<std::uint8_t>(b[used++]);
        length |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) {
            if (length > kMaxString) return std::nullopt;
            std::string s = elf.at(vaddr + used, length);
            if (s.size() < length) return std::nullopt;
            return std::pair{std::move(s), vaddr + used + length};
        }
    }
    return std::nullopt;
}

// A Go string header {data, len} at vaddr (the pre-1.18 format).
std::string pointed_string(const Elf& elf, std::uint64_t vaddr, std::size_t ptr_size, bool big) {
    const std::string h = elf.at(vaddr, 2 * ptr_size);
    if (h.size() < 2 * ptr_size) return {};
    const std::uint64_t data = Elf::number(h, 0, ptr_size, big), length = Elf::number(h, ptr_size, ptr_size, big);
    if (length > kMaxString) return {};
    std::string s = elf.at(data, length);
    return s.size() == length ? s : std::string();
}

std::optional<GoBuildInfo> parse(ReadAt read) {
    Elf elf(std::move(read));
    if (!elf.open()) return std::nullopt;
    const auto start = elf.data_start();
    if (!start) return std::nullopt;

    // The blob starts at a 16-byte aligned address near the data's start.
    std::optional<std::uint64_t> blob;
    constexpr std::uint64_t kChunk = 64 * 1024;
    const std::uint64_t limit = std::min(start->second, kSearchLimit);
    for (std::uint64_t off = 0; off < limit && !blob; off += kChunk) {
        const std::string chunk = elf.at(start->first + off, std::min(kChunk + kMagic.size(), limit - off));
        if (chunk.empty()) break;
        for (std::size_t i = 0; i + kMagic.size() <= chunk.size() && i < kChunk; ++i)
            if ((start->first + off + i) % kAlign == 0 && chunk.compare(i, kMagic.size(), kMagic) == 0) {
                blob = start->first + off + i;
                break;
            }
    }
    if (!blob) return std::nullopt;
    const std::string header = elf.at(*blob, kHeaderSize);
    if (header.size() < kHeaderSize) return std::nullopt;

    GoBuildInfo info;
    const auto ptr_size = static_cast<std::uint8_t>(header[14]);
    const auto flags = static_cast<std::uint8_t>(header[15]);
    if ((flags & 2u) != 0) {  // Go >= 1.18: inline
        auto version = inline_string(elf, *blob + kHeaderSize);
        if (!version) return std::nullopt;
        info.go_version = std::move(version->first);
        if (auto mod = inline_string(elf, version->second)) info.modinfo = std::move(mod->first);
    } else {
        if (ptr_size != 4 && ptr_size != 8) return std::nullopt;
        const bool big = (flags & 1u) != 0;
        info.go_version = pointed_string(elf, Elf::number(header, 16, ptr_size, big), ptr_size, big);
        info.modinfo = pointed_string(elf, Elf::number(header, 16 + ptr_size, ptr_size, big), ptr_size, big);
    }
    if (info.go_version.empty()) return std::nullopt;
    // 16-byte sentinels frame the module info (cmd/go's infoStart/infoEnd).
    const std::string& m = info.modinfo;
    info.modinfo = m.size() >= 33 && m[m.size() - 17] == '\n' ? m.substr(16, m.size() - 32) : std::string();
    return info;
}

}  // namespace

std::optional<GoBuildInfo> parse_go_build_info(std::string_view image) {
    return parse([image](std::uint64_t offset, std::size_t n) {
        if (offset >= image.size()) return std::string();
        return std::string(image.substr(static_cast<std::size_t>(offset), n));
    });
}

std::optional<GoBuildInfo> read_go_build_info(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    return parse([&in](std::uint64_t offset, std::size_t n) {
        std::string out(n, '\0');
        in.clear();
        in.seekg(static_cast<std::streamoff>(offset));
        in.read(out.data(), static_cast<std::streamsize>(n));
        out.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
        return out;
    });
}

std::optional<GoRelease> go_release(std::string_view version) {
    const auto at = version.find("go1.");
    if (at == std::string_view::npos) return std::nullopt;
    GoRelease r{1, 0};
    const char* first = version.data() + at + 4;
    const auto [end, ec] = std::from_chars(first, version.data() + version.size(), r.minor);
    if (ec != std::errc() || end == first) return std::nullopt;
    return r;
}

std::string default_godebug(std::string_view modinfo) {
    constexpr std::string_view key = "build\tDefaultGODEBUG=";
    std::size_t at = modinfo.rfind(std::string("\n").append(key));
    at = at == std::string_view::npos ? (modinfo.starts_with(key) ? 0 : at) : at + 1;
    if (at == std::string_view::npos) return {};
    const auto value = modinfo.substr(at + key.size());
    return std::string(value.substr(0, value.find('\n')));
}

bool has_dependency(std::string_view modinfo, std::string_view module) {
    const std::string needle = "dep\t" + std::string(module) + "\t";
    return modinfo.starts_with(needle) || modinfo.find("\n" + needle) != std::string_view::npos;
}

}  // namespace stand::detect
