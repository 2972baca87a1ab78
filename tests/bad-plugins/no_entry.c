/* Defect: does not export stand_plugin_entry_v1; exports a look-alike, stand_plugin_get_entry.
 * Built without the plugin version script (which would hide this symbol). */
#include "bad_common.h"

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-no-entry", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

STAND_EXPORT const stand_plugin_entry *stand_plugin_get_entry(void);
STAND_EXPORT const stand_plugin_entry *stand_plugin_get_entry(void) { return &entry; }
