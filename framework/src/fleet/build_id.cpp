#include "fleet/build_id.hpp"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>

namespace stand::fleet {
namespace {

std::string hex(const unsigned char* p, std::size_t n) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < n; ++i) {
        out += kDigits[p[i] >> 4];
        out += kDigits[p[i] & 15];
    }
    return out;
}

std::string note_in(const dl_phdr_info* info) {
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_NOTE) continue;
        const auto* at = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
        const auto* end = at + ph.p_memsz;
        while (at + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) note;
            std::memcpy(&note, at, sizeof(note));
            const auto* name = at + sizeof(note);
            const auto* desc = name + ((note.n_namesz + 3) & ~3u);
            if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0 &&
                desc + note.n_descsz <= end)
                return hex(desc, note.n_descsz);
            at = desc + ((note.n_descsz + 3) & ~3u);
        }
    }
    return {};
}

int visit(dl_phdr_info* info, std::size_t, void* out) {
    // The first object is the executable itself.
    *static_cast<std::string*>(out) = note_in(info);
    return 1;
}

}  // namespace

std::string own_build_id() {
    std::string id;
    dl_iterate_phdr(visit, &id);
    return id;
}

}  // namespace stand::fleet
