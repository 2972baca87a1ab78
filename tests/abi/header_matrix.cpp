// Compiled as C++17 and C++20 with -Wall -Wextra -pedantic -Werror: the C
// headers, the C++ helpers and the layout goldens.
#include <stand/stand.hpp>

#include "layout_goldens.h"

int stand_header_matrix_cpp() {
    stand_plugin_entry entry{};
    entry.struct_size = sizeof(entry);
    return STAND_HAS(&entry, stand_plugin_entry, create) ? 1 : 0;
}
