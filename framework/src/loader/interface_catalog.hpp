// What the host knows about each standard interface: the v1 table size and
// the members that must not be NULL. Used by the loader's checks and compat.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace stand::loader {

struct RequiredMember {
    const char* name;
    std::size_t offset;
};

struct InterfaceSpec {
    const char* id;
    std::uint32_t v1_size;
    std::vector<RequiredMember> required;
};

// The spec for a standard interface id, or nullptr for a third-party one.
const InterfaceSpec* find_interface_spec(std::string_view id);

// Checks a table returned by get_interface(); returns an empty string when it
// is valid, else the reason (NULL table, struct_size too small, NULL member).
std::string check_interface_table(std::string_view id, const void* table);

}  // namespace stand::loader
