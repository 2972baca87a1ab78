/* Defect: a static constructor crashes (SIGSEGV) while the library is being
 * loaded (dlopen), before any stand code of the plugin runs. The loader
 * dlopens in stand's own process, so today this kills stand: see the DISABLED
 * tests in ../CMakeLists.txt. */
#include "../bad_common.h"

static int *volatile null_pointer = NULL;

__attribute__((constructor)) static void crash_on_load(void) { *null_pointer = 42; }

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-ctor-segv", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
