/* Defect: the entry function itself crashes (SIGSEGV) when the loader calls it.
 * The loader calls it in stand's own process, so today this kills stand: see
 * the DISABLED tests in ../CMakeLists.txt. */
#include "../bad_common.h"

static int *volatile null_pointer = NULL;

STAND_EXPORT const stand_plugin_entry *STAND_ABI stand_plugin_entry_v1(void) {
    *null_pointer = 42;
    return NULL;
}
