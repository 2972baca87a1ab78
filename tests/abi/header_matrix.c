/* Compiled as C11 and C17 with -Wall -Wextra -pedantic -Werror: the SDK
 * headers are plain C, and their layout matches the goldens. */
#include <stand/stand.h>

#include "layout_goldens.h"

int stand_header_matrix_c(void) {
    stand_error err = {sizeof(stand_error), 0, NULL};
    stand_plugin_entry entry = {0};
    entry.struct_size = sizeof entry;
    return STAND_HAS(&entry, stand_plugin_entry, create) ? 1 : (int)err.capacity;
}
